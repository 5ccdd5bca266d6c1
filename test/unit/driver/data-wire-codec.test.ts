import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import {
  encodeMutateEntry,
  encodeMutateRowsRequest,
  encodeReadRowsRequest,
  encodeSampleRowKeysRequest,
} from '../../../src/driver/data-wire-requests.js';
import {
  decodeMutateRowsResponse,
  decodeReadRowsResponse,
  decodeSampleRowKeysResponse,
  type WireCellChunk,
} from '../../../src/driver/data-wire-responses.js';
import { ProtoWireError } from '../../../src/driver/proto-wire.js';
import { ChunkMerger } from '../../../src/driver/chunk-merger.js';
import { retryDelayInDetails } from '../../../src/driver/retry-rules.js';
import { MutateRowsRateLimiter } from '../../../src/driver/mutate-rows-limiter.js';
import type { RowData } from '../../../src/model/driver.js';
import type { CellMutation, CompiledMutation } from '../../../src/model/mutation.js';
import { toRawMutation, type RawEntry } from '../../../src/driver/client-mutation.js';
import type { ReadRowsMessage } from '../../../src/driver/read-rows-message.js';
import type { RowFilterMessage } from '../../../src/driver/row-filter-message.js';
import { propertyRuns } from '../../support/property-runs.js';
import { wireReference, withoutDefaults } from '../../support/bigtable-wire-reference.js';

const root = wireReference();
const type = (name: string): protobuf.Type => root.lookupType(name);
const ReadRowsRequest = type('google.bigtable.v2.ReadRowsRequest');
const ReadRowsResponse = type('google.bigtable.v2.ReadRowsResponse');
const CellChunk = type('google.bigtable.v2.ReadRowsResponse.CellChunk');
const MutateRowsRequest = type('google.bigtable.v2.MutateRowsRequest');
const MutateRowsResponse = type('google.bigtable.v2.MutateRowsResponse');
const SampleRowKeysRequest = type('google.bigtable.v2.SampleRowKeysRequest');
const SampleRowKeysResponse = type('google.bigtable.v2.SampleRowKeysResponse');
const RetryInfo = type('google.rpc.RetryInfo');

/** What protobufjs's `toObject` gives for a message (int64 as decimal strings, every default shown). */
const VIEW: protobuf.IConversionOptions = { longs: String, enums: String, bytes: String, defaults: true };

/** A message as protobufjs encodes it: `fromObject`, then `encode`. */
function referenceBytes(messageType: protobuf.Type, message: object): Buffer {
  return Buffer.from(messageType.encode(messageType.fromObject(message as Record<string, unknown>)).finish());
}

/** Checks our bytes for `message`: protobufjs reads back what it was given, and writes the same bytes. */
function expectEncodedLikeReference(messageType: protobuf.Type, message: object, ours: Buffer): void {
  const given = messageType.toObject(messageType.fromObject(message as Record<string, unknown>), VIEW);
  expect(messageType.toObject(messageType.decode(ours), VIEW)).toEqual(given);
  expect(ours.toString('hex')).toBe(
    referenceBytes(messageType, withoutDefaults(messageType, message as Record<string, unknown>)).toString('hex'),
  );
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const bytesArb = fc.uint8Array({ maxLength: 10 }).map((bytes) => Buffer.from(bytes));
const nameArb = fc.oneof(fc.constantFrom('', 'cf', 'family', 'é'), fc.string({ unit: 'binary', maxLength: 8 }));
/** Timestamps and limits as the driver holds them: safe integers, -1 (server time) among them. */
const safeIntArb = fc.oneof(fc.constantFrom(0, -1, 1, 2 ** 53 - 1, -(2 ** 53 - 1)), fc.maxSafeInteger());
const int64TextArb = fc
  .oneof(
    fc.constantFrom(INT64_MIN, INT64_MAX, 0n, -1n, 2n ** 53n, -(2n ** 53n), 2n ** 53n + 1n, -(2n ** 53n) - 1n),
    fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
    fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
  )
  .map(String);

// --- requests -------------------------------------------------------------

const rowRangeArb = fc
  .tuple(
    fc.option(fc.tuple(fc.boolean(), bytesArb), { nil: undefined }),
    fc.option(fc.tuple(fc.boolean(), bytesArb), { nil: undefined }),
  )
  .map(([start, end]) => {
    const range: Record<string, Buffer> = {};
    if (start !== undefined) range[start[0] ? 'startKeyClosed' : 'startKeyOpen'] = start[1];
    if (end !== undefined) range[end[0] ? 'endKeyClosed' : 'endKeyOpen'] = end[1];
    return range;
  });

const boundsArb = (closedStart: string, openStart: string, closedEnd: string, openEnd: string) =>
  fc
    .tuple(
      fc.option(fc.tuple(fc.constantFrom(closedStart, openStart), bytesArb), { nil: undefined }),
      fc.option(fc.tuple(fc.constantFrom(closedEnd, openEnd), bytesArb), { nil: undefined }),
    )
    .map((bounds) => Object.fromEntries(bounds.filter((b) => b !== undefined)));

/** One filter of each `RowFilter` kind (exactly one oneof member), chains, interleaves and conditions nested. */
const filterArb: fc.Arbitrary<RowFilterMessage> = fc.letrec<{ filter: RowFilterMessage }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.record({ sink: fc.boolean() }),
      fc.record({ passAllFilter: fc.boolean() }),
      fc.record({ blockAllFilter: fc.boolean() }),
      fc.record({ rowKeyRegexFilter: bytesArb }),
      fc.record({ rowSampleFilter: fc.double({ noNaN: true }) }),
      fc.record({ familyNameRegexFilter: nameArb }),
      fc.record({ columnQualifierRegexFilter: bytesArb }),
      fc.record({
        columnRangeFilter: fc
          .tuple(
            nameArb,
            boundsArb('startQualifierClosed', 'startQualifierOpen', 'endQualifierClosed', 'endQualifierOpen'),
          )
          .map(([familyName, bounds]) => ({ familyName, ...bounds })),
      }),
      fc.record({
        timestampRangeFilter: fc.record(
          { startTimestampMicros: safeIntArb, endTimestampMicros: fc.oneof(safeIntArb, int64TextArb) },
          { requiredKeys: [] },
        ),
      }),
      fc.record({ valueRegexFilter: bytesArb }),
      fc.record({
        valueRangeFilter: boundsArb('startValueClosed', 'startValueOpen', 'endValueClosed', 'endValueOpen'),
      }),
      fc.record({ cellsPerRowOffsetFilter: fc.integer() }),
      fc.record({ cellsPerRowLimitFilter: fc.integer() }),
      fc.record({ cellsPerColumnLimitFilter: fc.integer() }),
      fc.record({ stripValueTransformer: fc.boolean() }),
      fc.record({ applyLabelTransformer: nameArb }),
      fc.record({ valueBitmaskFilter: fc.record({ mask: bytesArb }, { requiredKeys: [] }) }),
    ),
    fc.record({ chain: fc.record({ filters: fc.array(tie('filter'), { maxLength: 3 }) }) }),
    fc.record({ interleave: fc.record({ filters: fc.array(tie('filter'), { maxLength: 3 }) }) }),
    fc.record({
      condition: fc.record(
        { predicateFilter: tie('filter'), trueFilter: tie('filter'), falseFilter: tie('filter') },
        { requiredKeys: [] },
      ),
    }),
  ),
})).filter;

const readRowsMessageArb: fc.Arbitrary<ReadRowsMessage> = fc.record(
  {
    tableName: nameArb,
    appProfileId: nameArb,
    rows: fc.record({
      rowKeys: fc.array(bytesArb, { maxLength: 4 }),
      rowRanges: fc.array(rowRangeArb, { maxLength: 4 }),
    }),
    filter: filterArb,
    rowsLimit: fc.oneof(fc.constant(0), fc.maxSafeInteger()),
    reversed: fc.boolean(),
  },
  { requiredKeys: ['tableName', 'rows'] },
);

/** A qualifier, with the compiled UTF-8 bytes a schema's cells carry, or without (the driver encodes the text). */
const qualified = <T extends object>(cell: T & { qualifier: string }, withBytes: boolean) =>
  withBytes ? { ...cell, qualifierBytes: Buffer.from(cell.qualifier, 'utf8') } : cell;

const cellMutationArb: fc.Arbitrary<CellMutation> = fc.oneof(
  fc
    .tuple(
      fc.record({ family: nameArb, qualifier: nameArb, timestampMicros: safeIntArb, value: bytesArb }),
      fc.boolean(),
    )
    .map(([cell, withBytes]) => qualified({ kind: 'setCell' as const, ...cell }, withBytes)),
  fc
    .tuple(fc.record({ family: nameArb, qualifier: nameArb }), fc.boolean())
    .map(([cell, withBytes]) => qualified({ kind: 'deleteFromColumn' as const, ...cell }, withBytes)),
  fc.record({ family: nameArb }).map((cell) => ({ kind: 'deleteFromFamily' as const, ...cell })),
  fc.constant({ kind: 'deleteFromRow' as const }),
  fc
    .tuple(
      fc.record({
        family: nameArb,
        qualifier: nameArb,
        timestampMicros: safeIntArb,
        input: fc.oneof(
          fc.constantFrom(INT64_MIN, INT64_MAX, 0n, -1n, 2n ** 53n + 1n),
          fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
        ),
      }),
      fc.boolean(),
    )
    .map(([cell, withBytes]) => qualified({ kind: 'addToCell' as const, ...cell }, withBytes)),
  fc
    .tuple(
      fc.record({ family: nameArb, qualifier: nameArb, timestampMicros: safeIntArb, state: bytesArb }),
      fc.boolean(),
    )
    .map(([cell, withBytes]) => qualified({ kind: 'mergeToCell' as const, ...cell }, withBytes)),
);

const compiledArb: fc.Arbitrary<CompiledMutation> = fc.record({
  table: fc.constant('t'),
  rowKey: bytesArb,
  rowKeyText: fc.constant('k'),
  mutations: fc.array(cellMutationArb, { maxLength: 4 }),
  idempotent: fc.boolean(),
});

/** The entry as protobufjs encodes it: each cell converted as the driver converts the cells of a unary call. */
const rawEntryOf = (mutation: CompiledMutation): RawEntry => ({
  rowKey: mutation.rowKey,
  mutations: mutation.mutations.map(toRawMutation),
});

const mutateRowsArb = fc.record(
  { tableName: nameArb, appProfileId: nameArb, entries: fc.array(compiledArb, { maxLength: 5 }) },
  { requiredKeys: ['tableName', 'entries'] },
);

/** Our request of these compiled mutations, and protobufjs's message of their raw entries. */
function mutateRows(message: { tableName: string; appProfileId?: string; entries: readonly CompiledMutation[] }): {
  ours: Buffer;
  reference: object;
} {
  return {
    ours: encodeMutateRowsRequest({ ...message, entries: message.entries.map(encodeMutateEntry) }),
    reference: { ...message, entries: message.entries.map(rawEntryOf) },
  };
}

describe('encodeReadRowsRequest', () => {
  it('writes what protobufjs reads back as the message, byte for byte as protobufjs writes it', () => {
    fc.assert(
      fc.property(readRowsMessageArb, (message) => {
        expectEncodedLikeReference(ReadRowsRequest, message, encodeReadRowsRequest(message));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('writes set oneof members at their default (an empty closed start key, a limit of 0) and leaves out default scalars', () => {
    const message: ReadRowsMessage = {
      tableName: '',
      rows: { rowKeys: [Buffer.alloc(0)], rowRanges: [{ startKeyClosed: Buffer.alloc(0) }] },
      filter: { cellsPerColumnLimitFilter: 0 },
      rowsLimit: 0,
      reversed: false,
    };
    const decoded = ReadRowsRequest.toObject(ReadRowsRequest.decode(encodeReadRowsRequest(message)), {
      oneofs: true,
    });
    expect(decoded).toEqual({
      rows: {
        rowKeys: [Buffer.alloc(0)],
        rowRanges: [{ startKeyClosed: Buffer.alloc(0), startKey: 'startKeyClosed' }],
      },
      filter: { cellsPerColumnLimitFilter: 0, filter: 'cellsPerColumnLimitFilter' },
    });
  });

  it('reads a filter time bound that is not a finite integer as protobufjs does (NaN as 0, fractions truncated)', () => {
    const bytes = encodeReadRowsRequest({
      tableName: 't',
      rows: { rowKeys: [], rowRanges: [] },
      filter: { timestampRangeFilter: { startTimestampMicros: Number.NaN, endTimestampMicros: -1.5 } },
    });
    const decoded = ReadRowsRequest.toObject(ReadRowsRequest.decode(bytes), { longs: String });
    expect(decoded['filter']).toEqual({ timestampRangeFilter: { endTimestampMicros: '-1' } });
  });
});

describe('encodeMutateRowsRequest and encodeMutateEntry', () => {
  it('write what protobufjs reads back as the raw entries, byte for byte as protobufjs writes them', () => {
    fc.assert(
      fc.property(mutateRowsArb, (message) => {
        const { ours, reference } = mutateRows(message);
        expectEncodedLikeReference(MutateRowsRequest, reference, ours);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('write server time (-1) as a 10-byte varint and AddToCell inputs over the whole int64 range', () => {
    const entry: CompiledMutation = {
      table: 't',
      rowKey: Buffer.from('r'),
      rowKeyText: 'r',
      mutations: [
        { kind: 'setCell', family: 'cf', qualifier: 'q', timestampMicros: -1, value: Buffer.from('v') },
        ...[INT64_MAX, INT64_MIN, 2n ** 53n + 1n].map((input) => ({
          kind: 'addToCell' as const,
          family: 'agg',
          qualifier: 'n',
          timestampMicros: 0,
          input,
        })),
      ],
      idempotent: false,
    };
    const bytes = encodeMutateRowsRequest({ tableName: 't', entries: [encodeMutateEntry(entry)] });
    expect(bytes.includes(Buffer.from('18ffffffffffffffffff01', 'hex'))).toBe(true);
    const decoded = MutateRowsRequest.toObject(MutateRowsRequest.decode(bytes), { longs: String }) as {
      entries: {
        mutations: { setCell?: { timestampMicros: string }; addToCell?: { input: { intValue: string } } }[];
      }[];
    };
    const [setCell, ...adds] = decoded.entries[0]?.mutations ?? [];
    expect(setCell?.setCell?.timestampMicros).toBe('-1');
    expect(adds.map((m) => m.addToCell?.input.intValue)).toEqual([
      '9223372036854775807',
      '-9223372036854775808',
      '9007199254740993',
    ]);
  });

  it('rejects an AddToCell input that is not an int64', () => {
    for (const input of [INT64_MAX + 1n, INT64_MIN - 1n]) {
      const entry: CompiledMutation = {
        table: 't',
        rowKey: Buffer.from('r'),
        rowKeyText: 'r',
        mutations: [{ kind: 'addToCell', family: 'agg', qualifier: 'n', timestampMicros: 0, input }],
        idempotent: false,
      };
      expect(() => encodeMutateEntry(entry)).toThrow(ProtoWireError);
    }
  });

  it('write a bulk request of many cells over few families as protobufjs does', () => {
    const entries = Array.from({ length: 50 }, (_, row): CompiledMutation => ({
      table: 't',
      rowKey: Buffer.from(`row#${row}`),
      rowKeyText: `row#${row}`,
      mutations: Array.from({ length: 10 }, (_, cell) => ({
        kind: 'setCell' as const,
        family: ['cf', 'é', 'cf'][cell % 3] as string,
        qualifier: `q${cell}`,
        timestampMicros: 1_700_000_000_000_000 + row,
        value: Buffer.alloc(cell * 20, row),
      })),
      idempotent: true,
    }));
    const { ours, reference } = mutateRows({
      tableName: 'projects/p/instances/i/tables/t',
      appProfileId: 'p',
      entries,
    });
    expectEncodedLikeReference(MutateRowsRequest, reference, ours);
  });

  it('keep what the driver reports beside the bytes of an entry, which read back as the raw entry', () => {
    fc.assert(
      fc.property(compiledArb, (mutation) => {
        const entry = encodeMutateEntry(mutation);
        const values = mutation.mutations.reduce(
          (sum, cell) =>
            sum +
            (cell.kind === 'setCell'
              ? cell.value.length
              : cell.kind === 'addToCell'
                ? 8
                : cell.kind === 'mergeToCell'
                  ? cell.state.length
                  : 0),
          0,
        );
        expect(entry).toMatchObject({
          kind: 'prepared',
          table: 't',
          rowKeyText: 'k',
          idempotent: mutation.idempotent,
          cellCount: mutation.mutations.length,
          dataBytes: mutation.rowKey.length + values,
        });
        expect(entry.rowKey).toBe(mutation.rowKey);
        const Entry = type('google.bigtable.v2.MutateRowsRequest.Entry');
        expect(Entry.toObject(Entry.fromObject(entry.toRawEntry()), VIEW)).toEqual(
          Entry.toObject(Entry.fromObject(rawEntryOf(mutation)), VIEW),
        );
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});

describe('encodeSampleRowKeysRequest', () => {
  it('writes the table and app profile as protobufjs does', () => {
    fc.assert(
      fc.property(
        fc.record({ tableName: nameArb, appProfileId: nameArb }, { requiredKeys: ['tableName'] }),
        (message) => expectEncodedLikeReference(SampleRowKeysRequest, message, encodeSampleRowKeysRequest(message)),
      ),
      { numRuns: propertyRuns(500) },
    );
  });
});

// --- responses ------------------------------------------------------------

/** An int64 as the codec reads it: a number when safe, else its decimal string. */
function int64View(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

const chunkArb = fc
  .record(
    {
      rowKey: bytesArb,
      familyName: fc.record({ value: nameArb }, { requiredKeys: [] }),
      qualifier: fc.record({ value: bytesArb }, { requiredKeys: [] }),
      timestampMicros: int64TextArb,
      labels: fc.array(nameArb, { maxLength: 2 }),
      value: bytesArb,
      valueSize: fc.integer(),
      status: fc.constantFrom('resetRow', 'commitRow'),
      flag: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map(({ status, flag, ...chunk }) => (status === undefined ? chunk : { ...chunk, [status]: flag ?? true }));

const readRowsResponseArb = fc.record(
  {
    chunks: fc.array(chunkArb, { maxLength: 6 }),
    lastScannedRowKey: bytesArb,
    requestStats: fc.record({
      fullReadStatsView: fc.record({
        readIterationStats: fc.record({ rowsSeenCount: int64TextArb, cellsReturnedCount: int64TextArb }),
        requestLatencyStats: fc.record({
          frontendServerLatency: fc.record({ seconds: int64TextArb, nanos: fc.integer() }),
        }),
      }),
    }),
  },
  { requiredKeys: [] },
);

/** Our chunk of what protobufjs decoded. */
function expectedChunk(chunk: Record<string, unknown>): WireCellChunk {
  const family = chunk['familyName'] as { value?: string } | undefined;
  const qualifier = chunk['qualifier'] as { value?: Buffer } | undefined;
  return {
    rowKey: (chunk['rowKey'] as Buffer | undefined) ?? null,
    familyName: family === undefined ? null : { value: family.value ?? '' },
    qualifier: qualifier === undefined ? null : { value: qualifier.value ?? Buffer.alloc(0) },
    timestampMicros: int64View(String(chunk['timestampMicros'] ?? '0')),
    value: (chunk['value'] as Buffer | undefined) ?? null,
    valueSize: (chunk['valueSize'] as number | undefined) ?? 0,
    resetRow: (chunk['resetRow'] as boolean | undefined) ?? false,
    commitRow: (chunk['commitRow'] as boolean | undefined) ?? false,
  };
}

/** Decodes with protobufjs: only the fields on the wire, bytes as Buffers, int64 as strings. */
function referenceDecode(messageType: protobuf.Type, bytes: Uint8Array): Record<string, unknown> {
  return messageType.toObject(messageType.decode(bytes), { longs: String, bytes: Buffer }) as Record<string, unknown>;
}

/** Comparable form: Buffers as hex, so a view and a copy of the same bytes are equal. */
function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, function (this: unknown, key: string, item: unknown) {
      const raw = (this as Record<string, unknown>)[key];
      return Buffer.isBuffer(raw) ? `hex:${raw.toString('hex')}` : item;
    }),
  );
}

/** A valid unknown field of each wire type, as bytes (field 15: no message here uses it). */
const unknownFieldArb = fc.oneof(
  fc.constant(Buffer.from('7801', 'hex')), // varint
  fc.constant(Buffer.from('79' + '00'.repeat(8), 'hex')), // fixed64
  fc.constant(Buffer.from('7a03616263', 'hex')), // length-delimited
  fc.constant(Buffer.from('7d01020304', 'hex')), // fixed32
  fc.constant(Buffer.from('7b' + '0801' + '7b7c' + '7c', 'hex')), // a group holding a varint and a nested group
);

describe('decodeReadRowsResponse', () => {
  it('reads what protobufjs wrote: every chunk in one shape, bytes as views, int64 exact', () => {
    fc.assert(
      fc.property(readRowsResponseArb, (response) => {
        const bytes = referenceBytes(ReadRowsResponse, response);
        const reference = referenceDecode(ReadRowsResponse, bytes);
        const decoded = decodeReadRowsResponse(bytes);
        const chunks = (reference['chunks'] as Record<string, unknown>[] | undefined) ?? [];
        expect(plain(decoded)).toEqual(
          plain({
            chunks: chunks.map(expectedChunk),
            lastScannedRowKey: (reference['lastScannedRowKey'] as Buffer | undefined) ?? null,
          }),
        );
        for (const chunk of decoded.chunks) {
          expect(Object.keys(chunk)).toEqual([
            'rowKey',
            'familyName',
            'qualifier',
            'timestampMicros',
            'value',
            'valueSize',
            'resetRow',
            'commitRow',
          ]);
          for (const view of [chunk.rowKey, chunk.value, chunk.qualifier?.value])
            if (view != null && view.length > 0) expect(view.buffer).toBe(bytes.buffer);
        }
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('skips unknown fields of every wire type, in the response and in its chunks', () => {
    fc.assert(
      fc.property(chunkArb, unknownFieldArb, unknownFieldArb, (chunk, inChunk, atTop) => {
        const chunkBytes = Buffer.concat([referenceBytes(CellChunk, chunk), inChunk]);
        const chunkField = protobuf.Writer.create().uint32(0x0a).bytes(chunkBytes).finish();
        const withUnknown = Buffer.concat([chunkField, atTop]);
        const plainBytes = referenceBytes(ReadRowsResponse, { chunks: [chunk] });
        expect(plain(decodeReadRowsResponse(withUnknown))).toEqual(plain(decodeReadRowsResponse(plainBytes)));
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('reads empty wrappers as present, timestamps beyond 2^53 as decimal strings and negative ones as numbers', () => {
    const bytes = referenceBytes(ReadRowsResponse, {
      chunks: [
        {
          rowKey: Buffer.from('r'),
          familyName: {},
          qualifier: {},
          timestampMicros: '9007199254740993',
          commitRow: true,
        },
        { rowKey: Buffer.from('s'), familyName: { value: 'f' }, timestampMicros: '-1000' },
      ],
    });
    const [first, second] = decodeReadRowsResponse(bytes).chunks;
    expect(first?.familyName).toEqual({ value: '' });
    expect(first?.qualifier?.value.length).toBe(0);
    expect(first?.timestampMicros).toBe('9007199254740993');
    expect(second?.qualifier).toBeNull();
    expect(second?.timestampMicros).toBe(-1000);
  });

  it('shares the wrapper of a family or qualifier repeated at the same place, and only when its bytes are the same', () => {
    const cell = (row: string | undefined, family: string, qualifier: string) => ({
      ...(row === undefined ? {} : { rowKey: Buffer.from(row) }),
      familyName: { value: family },
      qualifier: { value: Buffer.from(qualifier) },
      value: Buffer.from('v'),
      ...(row === undefined ? { commitRow: true } : {}),
    });
    const bytes = referenceBytes(ReadRowsResponse, {
      chunks: [
        cell('a', 'cf', 'col1'),
        cell(undefined, 'cf', 'col2'),
        cell('b', 'cf', 'col2'),
        cell(undefined, 'cg', 'col1'),
        cell('c', 'cg', 'col2'),
        cell(undefined, 'cg', 'col1'),
      ],
    });
    const chunks = decodeReadRowsResponse(bytes).chunks;
    expect(chunks.map((c) => `${c.familyName?.value}:${c.qualifier?.value.toString()}`)).toEqual([
      'cf:col1',
      'cf:col2',
      'cf:col2',
      'cg:col1',
      'cg:col2',
      'cg:col1',
    ]);
    expect(chunks[1]?.familyName).toBe(chunks[0]?.familyName);
    expect(chunks[4]?.qualifier).toBe(chunks[2]?.qualifier);
    expect(chunks[5]?.qualifier).toBe(chunks[3]?.qualifier);
    expect(chunks[2]?.qualifier).not.toBe(chunks[0]?.qualifier);
  });

  it('feeds the chunk merger: split values, a reset row and repeated families and qualifiers', () => {
    const bytes = referenceBytes(ReadRowsResponse, {
      chunks: [
        {
          rowKey: Buffer.from('a'),
          familyName: { value: 'cf' },
          qualifier: { value: Buffer.from('q') },
          value: Buffer.from('dropped'),
          timestampMicros: 1000,
        },
        { resetRow: true },
        {
          rowKey: Buffer.from('a'),
          familyName: { value: 'cf' },
          qualifier: { value: Buffer.from('q') },
          timestampMicros: 2000,
          value: Buffer.from('he'),
          valueSize: 5,
        },
        { value: Buffer.from('llo') },
        {
          familyName: { value: 'cf' },
          qualifier: { value: Buffer.from('r') },
          timestampMicros: 2000,
          value: Buffer.from('x'),
          commitRow: true,
        },
        {
          rowKey: Buffer.from('b'),
          familyName: { value: 'cf' },
          qualifier: { value: Buffer.from('q') },
          timestampMicros: 3000,
          value: Buffer.from('y'),
          commitRow: true,
        },
      ],
    });
    const rows: RowData[] = [];
    const merger = new ChunkMerger();
    merger.push(decodeReadRowsResponse(bytes).chunks, (row) => rows.push(row));
    merger.finish();
    expect(plain(rows)).toEqual(
      plain([
        {
          key: Buffer.from('a'),
          cells: {
            cf: {
              q: [{ value: Buffer.from('hello'), timestampMicros: 2000 }],
              r: [{ value: Buffer.from('x'), timestampMicros: 2000 }],
            },
          },
        },
        { key: Buffer.from('b'), cells: { cf: { q: [{ value: Buffer.from('y'), timestampMicros: 3000 }] } } },
      ]),
    );
  });

  it('throws ProtoWireError for every cut of a one-chunk response, and for garbage (of any response) only ProtoWireError', () => {
    fc.assert(
      fc.property(chunkArb, (chunk) => {
        const bytes = referenceBytes(ReadRowsResponse, { chunks: [chunk] });
        for (let end = 1; end < bytes.length; end++)
          expect(() => decodeReadRowsResponse(bytes.subarray(0, end))).toThrow(ProtoWireError);
      }),
      { numRuns: propertyRuns(300) },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (garbage) => {
        for (const decode of [decodeReadRowsResponse, decodeMutateRowsResponse, decodeSampleRowKeysResponse]) {
          try {
            decode(Buffer.from(garbage));
          } catch (error) {
            expect(error).toBeInstanceOf(ProtoWireError);
          }
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
    fc.assert(
      fc.property(readRowsResponseArb, fc.nat(), fc.integer({ min: 0, max: 255 }), (response, at, byte) => {
        const bytes = referenceBytes(ReadRowsResponse, response);
        if (bytes.length === 0) return;
        bytes[at % bytes.length] = byte;
        try {
          decodeReadRowsResponse(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(ProtoWireError);
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('rejects a known field of the wrong wire type', () => {
    // CellChunk.row_key (1) as a varint.
    expect(() => decodeReadRowsResponse(Buffer.from('0a020801', 'hex'))).toThrow(/field 1 has wire type 0/);
  });
});

const statusArb = fc.record(
  {
    code: fc.integer(),
    message: nameArb,
    // protobufjs's own google.protobuf.Any keeps the field's proto name, `type_url`.
    details: fc.array(fc.record({ type_url: nameArb, value: bytesArb }, { requiredKeys: [] }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

const mutateRowsResponseArb = fc.record(
  {
    entries: fc.array(fc.record({ index: int64TextArb, status: statusArb }, { requiredKeys: [] }), { maxLength: 5 }),
    rateLimitInfo: fc.record(
      { period: fc.record({ seconds: int64TextArb, nanos: fc.integer() }, { requiredKeys: [] }), factor: fc.double() },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

describe('decodeMutateRowsResponse', () => {
  it('reads what protobufjs wrote: indexes, statuses with their details, and the rate limit', () => {
    fc.assert(
      fc.property(mutateRowsResponseArb, (response) => {
        const bytes = referenceBytes(MutateRowsResponse, response);
        const reference = referenceDecode(MutateRowsResponse, bytes);
        const entries = (reference['entries'] as Record<string, unknown>[] | undefined) ?? [];
        const info = reference['rateLimitInfo'] as Record<string, unknown> | undefined;
        const period = info?.['period'] as { seconds?: string; nanos?: number } | undefined;
        const expected = {
          entries: entries.map((entry) => {
            const status = entry['status'] as
              { code?: number; message?: string; details?: { type_url?: string; value?: Buffer }[] } | undefined;
            return {
              index: int64View(String(entry['index'] ?? '0')),
              status:
                status === undefined
                  ? null
                  : {
                      code: status.code ?? 0,
                      message: status.message ?? '',
                      details: (status.details ?? []).map((d) => ({
                        typeUrl: d.type_url ?? '',
                        value: d.value ?? Buffer.alloc(0),
                      })),
                    },
            };
          }),
          rateLimitInfo:
            info === undefined
              ? null
              : {
                  period:
                    period === undefined
                      ? null
                      : { seconds: int64View(period.seconds ?? '0'), nanos: period.nanos ?? 0 },
                  factor: (info['factor'] as number | undefined) ?? 0,
                },
        };
        const decoded = decodeMutateRowsResponse(bytes);
        expect(plain(decoded)).toEqual(plain(expected));
        if (decoded.rateLimitInfo !== null)
          expect(Object.is(decoded.rateLimitInfo.factor, expected.rateLimitInfo?.factor)).toBe(true);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('keeps RetryInfo readable in an entry status (retryDelayInDetails)', () => {
    const retryInfo = Buffer.from(
      RetryInfo.encode(RetryInfo.fromObject({ retryDelay: { seconds: 2, nanos: 500_000_000 } })).finish(),
    );
    const bytes = referenceBytes(MutateRowsResponse, {
      entries: [
        {
          index: '9007199254740993',
          status: {
            code: 8,
            message: 'slow down',
            details: [{ type_url: 'type.googleapis.com/google.rpc.RetryInfo', value: retryInfo }],
          },
        },
      ],
    });
    const [entry] = decodeMutateRowsResponse(bytes).entries;
    expect(entry?.index).toBe('9007199254740993');
    expect(retryDelayInDetails(entry?.status?.details)).toBe(2500);
  });

  it('hands the rate limiter a RateLimitInfo it acts on', () => {
    const bytes = referenceBytes(MutateRowsResponse, {
      entries: [{ index: 0, status: {} }],
      rateLimitInfo: { period: { seconds: 5 }, factor: 0.8 },
    });
    const { rateLimitInfo } = decodeMutateRowsResponse(bytes);
    expect(rateLimitInfo).toEqual({ period: { seconds: 5, nanos: 0 }, factor: 0.8 });
    const limiter = new MutateRowsRateLimiter(() => 0);
    limiter.observe(rateLimitInfo);
    expect(limiter.enabled).toBe(true);
    expect(limiter.qps).toBeCloseTo(8);
    expect(decodeMutateRowsResponse(referenceBytes(MutateRowsResponse, { entries: [] })).rateLimitInfo).toBeNull();
  });

  it('throws ProtoWireError for a truncated response', () => {
    const bytes = referenceBytes(MutateRowsResponse, {
      entries: [{ index: 3, status: { code: 14, message: 'unavailable' } }],
    });
    for (let end = 1; end < bytes.length; end++)
      expect(() => decodeMutateRowsResponse(bytes.subarray(0, end))).toThrow(ProtoWireError);
  });
});

describe('decodeSampleRowKeysResponse', () => {
  it('reads the row key as a view and the offset as a number, or a decimal string beyond 2^53', () => {
    fc.assert(
      fc.property(fc.record({ rowKey: bytesArb, offsetBytes: int64TextArb }, { requiredKeys: [] }), (response) => {
        const bytes = referenceBytes(SampleRowKeysResponse, response);
        const reference = referenceDecode(SampleRowKeysResponse, bytes);
        expect(plain(decodeSampleRowKeysResponse(bytes))).toEqual(
          plain({
            rowKey: (reference['rowKey'] as Buffer | undefined) ?? Buffer.alloc(0),
            offsetBytes: int64View(String(reference['offsetBytes'] ?? '0')),
          }),
        );
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
