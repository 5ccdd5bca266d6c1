import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The client's own filter compiler, as the reference the driver's messages must equal (tests only: src/ never imports build/).
import { Filter } from '@google-cloud/bigtable/build/src/filter.js';
import { toClientFilter } from '../../support/client-filter.js';
import { escapeRegexBytes, toRowFilterMessage } from '../../../src/driver/row-filter-message.js';
import { ValidationError } from '../../../src/errors/errors.js';
import type { RowFilter } from '../../../src/model/row-filter.js';
import { propertyRuns } from '../../support/property-runs.js';

interface ProtoType {
  fromObject(object: object): unknown;
  encode(message: unknown): { finish(): Uint8Array };
}
/** The generated client's own `google.bigtable.v2.RowFilter` type, to compare wire bytes. */
const RowFilterProto = (
  createRequire(createRequire(import.meta.url).resolve('@google-cloud/bigtable'))('@google-cloud/bigtable-api') as {
    protos: { google: { bigtable: { v2: { RowFilter: ProtoType } } } };
  }
).protos.google.bigtable.v2.RowFilter;

const wire = (message: object): string =>
  Buffer.from(RowFilterProto.encode(RowFilterProto.fromObject(message)).finish()).toString('hex');

/** What the driver sent before: our filter in the client's language, compiled by the client. */
const clientCompiled = (filter: RowFilter): object => Filter.parse(toClientFilter(filter) as never) as object;

const HOSTILE = ['.', '*', '\\', '-', 'a-b', 'x|y', '(a)', '[a-z]', '^a$', '{1}', '+?', 'é', 'ñ.ü', '😀', 'a\nb', '\0'];

const nameArb = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.string({
    unit: fc.constantFrom('.', '*', '\\', '-', '|', '(', ')', '[', ']', '^', '$', '{', '}', '+', '?', 'a'),
    maxLength: 6,
  }),
);
const familyArb = fc.stringMatching(/^[a-z][-_.a-z0-9]{0,5}$/);
const micros = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 52 }),
  fc.constantFrom(1_700_000_000_000_000, 1_700_000_000_000_001, 1_700_000_000_000_999, 0, 1),
);

const filterArb: fc.Arbitrary<RowFilter> = fc.letrec<{ filter: RowFilter }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<RowFilter>({ kind: 'passAll' }),
    fc.constant<RowFilter>({ kind: 'blockAll' }),
    fc.constant<RowFilter>({ kind: 'stripValue' }),
    familyArb.map((name): RowFilter => ({ kind: 'family', name })),
    fc.array(nameArb, { maxLength: 3 }).map((names): RowFilter => ({ kind: 'qualifiers', names })),
    fc.integer({ min: 1, max: 10 }).map((limit): RowFilter => ({ kind: 'cellsPerColumn', limit })),
    fc
      .record({ startMicros: fc.option(micros, { nil: undefined }), endMicros: fc.option(micros, { nil: undefined }) })
      .map((range): RowFilter => ({ kind: 'timestampRange', ...range })),
    fc.uint8Array({ maxLength: 6 }).map((bytes): RowFilter => ({ kind: 'valueEquals', value: Buffer.from(bytes) })),
    fc.array(tie('filter'), { maxLength: 3 }).map((filters): RowFilter => ({ kind: 'chain', filters })),
    fc.array(tie('filter'), { maxLength: 3 }).map((filters): RowFilter => ({ kind: 'interleave', filters })),
    fc
      .record({ test: tie('filter'), pass: tie('filter'), fail: tie('filter') })
      .map((parts): RowFilter => ({ kind: 'condition', ...parts })),
  ),
})).filter;

describe('toRowFilterMessage', () => {
  it("equals what the client's own filter compiler made of the same filter, on the wire too", () => {
    fc.assert(
      fc.property(filterArb, (filter) => {
        const message = toRowFilterMessage(filter);
        const reference = clientCompiled(filter);
        expect(message).toStrictEqual(reference);
        expect(wire(message)).toBe(wire(reference));
      }),
      { numRuns: propertyRuns(2_000) },
    );
  });

  it('escapes hostile qualifiers byte for byte, one or several', () => {
    for (const name of HOSTILE) {
      const filter: RowFilter = { kind: 'qualifiers', names: [name] };
      expect(toRowFilterMessage(filter), JSON.stringify(name)).toStrictEqual(clientCompiled(filter));
    }
    expect(toRowFilterMessage({ kind: 'qualifiers', names: ['a.b', 'c-d', 'é*'] })).toStrictEqual({
      columnQualifierRegexFilter: Buffer.from('(a\\.b|c\\x2dd|é\\*)'),
    });
    const all: RowFilter = { kind: 'qualifiers', names: HOSTILE };
    expect(toRowFilterMessage(all)).toStrictEqual(clientCompiled(all));
  });

  it('escapes values that are not UTF-8 byte for byte', () => {
    const value = Buffer.from([0xff, 0x2e, 0x00, 0x2d, 0x80, 0xc3, 0x2a, 0x5c]);
    const filter: RowFilter = { kind: 'valueEquals', value };
    expect(toRowFilterMessage(filter)).toStrictEqual({
      valueRegexFilter: Buffer.from([
        0xff, 0x5c, 0x2e, 0x00, 0x5c, 0x78, 0x32, 0x64, 0x80, 0xc3, 0x5c, 0x2a, 0x5c, 0x5c,
      ]),
    });
    expect(toRowFilterMessage(filter)).toStrictEqual(clientCompiled(filter));
  });

  it('escapes family names as RE2 text', () => {
    expect(toRowFilterMessage({ kind: 'family', name: 'g.x-y' })).toStrictEqual({ familyNameRegexFilter: 'g\\.x\\-y' });
  });

  it('rounds time bounds up to whole milliseconds', () => {
    expect(toRowFilterMessage({ kind: 'timestampRange', startMicros: 1_001, endMicros: 2_000 })).toStrictEqual({
      timestampRangeFilter: { startTimestampMicros: 2_000, endTimestampMicros: 2_000 },
    });
    expect(toRowFilterMessage({ kind: 'timestampRange', startMicros: undefined, endMicros: undefined })).toStrictEqual({
      passAllFilter: true,
    });
  });

  it('rejects an unknown kind with ValidationError, also deep inside', () => {
    const bogus = { kind: 'regex' } as unknown as RowFilter;
    expect(() => toRowFilterMessage(bogus)).toThrow(ValidationError);
    expect(() => toRowFilterMessage({ kind: 'chain', filters: [{ kind: 'passAll' }, bogus] })).toThrow(ValidationError);
  });
});

describe('escapeRegexBytes', () => {
  it('returns bytes without metacharacters as they are', () => {
    const plain = Buffer.from('abc_123 é');
    expect(escapeRegexBytes(plain)).toBe(plain);
  });

  it('matches only itself: unescaping the output gives the input back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20 }), (bytes) => {
        const escaped = escapeRegexBytes(Buffer.from(bytes));
        const unescaped = escaped
          .toString('latin1')
          .replace(/\\x2d|\\(.)/gs, (all, char: string | undefined) => char ?? '-');
        expect(Buffer.from(unescaped, 'latin1')).toEqual(Buffer.from(bytes));
      }),
    );
  });
});
