import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkMerger, InvalidChunkError, type ReadRowsChunk } from '../../../src/driver/chunk-merger.js';
import type { RowData } from '../../../src/model/driver.js';
import { propertyRuns } from '../../support/property-runs.js';

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

type Bytes = string | Uint8Array;

/** A chunk written in shorthand: strings become UTF-8 Buffers, families are wrapped. */
interface ChunkSpec {
  key?: Bytes;
  family?: string;
  qualifier?: Bytes;
  ts?: unknown;
  value?: Bytes;
  valueSize?: number;
  reset?: boolean;
  commit?: boolean;
}

const bytes = (value: Bytes): Uint8Array => (typeof value === 'string' ? Buffer.from(value, 'utf8') : value);

/** Builds a `ReadRowsChunk`, leaving out every field the spec does not name. */
function chunk(spec: ChunkSpec): ReadRowsChunk {
  const out: {
    rowKey?: Uint8Array;
    familyName?: { value: string };
    qualifier?: { value: Uint8Array };
    timestampMicros?: unknown;
    value?: Uint8Array;
    valueSize?: number;
    resetRow?: boolean;
    commitRow?: boolean;
  } = {};
  if (spec.key !== undefined) out.rowKey = bytes(spec.key);
  if (spec.family !== undefined) out.familyName = { value: spec.family };
  if (spec.qualifier !== undefined) out.qualifier = { value: bytes(spec.qualifier) };
  if (spec.ts !== undefined) out.timestampMicros = spec.ts;
  if (spec.value !== undefined) out.value = bytes(spec.value);
  if (spec.valueSize !== undefined) out.valueSize = spec.valueSize;
  if (spec.reset !== undefined) out.resetRow = spec.reset;
  if (spec.commit !== undefined) out.commitRow = spec.commit;
  return out;
}

const RESET: ReadRowsChunk = { resetRow: true };

/** Bytes shown as text when printable ASCII, else as `0x<hex>`; `hex` forces the hex form. */
function show(value: Buffer, hex = false): string {
  if (!hex && /^[\x20-\x7e]*$/.test(value.toString('latin1'))) return value.toString('latin1');
  return `0x${value.toString('hex')}`;
}

/**
 * A row as a flat list in emitted order: `family:qualifier@micros=value` per
 * cell (families, then qualifiers, in key order, cells in list order), and
 * `family:qualifier (no cells)` for an empty column, so any difference in
 * grouping or order shows.
 */
function cellsOf(row: RowData, hex = false): string[] {
  const out: string[] = [];
  for (const family of Object.keys(row.cells)) {
    const columns = row.cells[family] as Record<string, readonly { value: Buffer; timestampMicros: number }[]>;
    for (const qualifier of Object.keys(columns)) {
      const versions = columns[qualifier] ?? [];
      if (versions.length === 0) out.push(`${family}:${qualifier} (no cells)`);
      for (const cell of versions) out.push(`${family}:${qualifier}@${cell.timestampMicros}=${show(cell.value, hex)}`);
    }
  }
  return out;
}

interface Emitted {
  /** Index of the `push` call during which the row was emitted. */
  push: number;
  key: string;
  bytes: number;
  cells: string[];
  row: RowData;
}

/** Feeds each group of chunks to one `push` call and records what is emitted, and when. */
function feed(
  merger: ChunkMerger,
  pushes: readonly (readonly ReadRowsChunk[])[],
  hex = false,
  emitted: Emitted[] = [],
): Emitted[] {
  pushes.forEach((group, push) => {
    merger.push(group, (row, count) =>
      emitted.push({ push, key: show(row.key, hex), bytes: count, cells: cellsOf(row, hex), row }),
    );
  });
  return emitted;
}

/** Merges chunks given in one push, checks the stream can end there, and returns the rows. */
function merge(...chunks: ReadRowsChunk[]): { key: string; bytes: number; cells: string[] }[] {
  const merger = new ChunkMerger();
  const emitted = feed(merger, [chunks]);
  merger.finish();
  expect(merger.inRow).toBe(false);
  return emitted.map(({ key, bytes: count, cells }) => ({ key, bytes: count, cells }));
}

/** The error `run` throws (fails the test when it throws nothing). */
function thrown(run: () => void): Error {
  try {
    run();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error, but nothing was thrown');
}

/** Pushes the chunks (then finishes) and expects an `InvalidChunkError` whose message matches `problem`. */
function expectInvalid(chunks: readonly ReadRowsChunk[], problem: RegExp): Emitted[] {
  const merger = new ChunkMerger();
  const emitted: Emitted[] = [];
  const err = thrown(() => {
    feed(merger, [chunks], false, emitted);
    merger.finish();
  });
  expect(err).toBeInstanceOf(InvalidChunkError);
  expect(err.name).toBe('InvalidChunkError');
  expect(err.message).toMatch(/^invalid ReadRows response: /);
  expect(err.message).toMatch(problem);
  return emitted;
}

/**
 * Runs `body` and then checks it added or changed no property of the shared
 * built-ins (`Object.prototype`, `Object`, `Array.prototype`,
 * `Function.prototype` and the `Object.prototype` methods named in the tests); anything added is removed and anything changed (such
 * as the `Object.prototype.__proto__` accessor) restored, so one failure cannot
 * leak into other tests.
 */
function withoutPollution(body: () => void): void {
  const targets: [string, object][] = [
    ['Object.prototype', Object.prototype],
    ['Object', Object],
    ['Array.prototype', Array.prototype],
    ['Function.prototype', Function.prototype],
    ['Object.prototype.toString', Object.prototype.toString],
    ['Object.prototype.hasOwnProperty', Object.prototype.hasOwnProperty],
    ['Object.prototype.valueOf', Object.prototype.valueOf],
  ];
  const before = targets.map(
    ([, target]) =>
      new Map(
        Reflect.ownKeys(target).map((key) => [
          key,
          Reflect.getOwnPropertyDescriptor(target, key) as PropertyDescriptor,
        ]),
      ),
  );
  const same = (a: PropertyDescriptor, b: PropertyDescriptor): boolean =>
    a.value === b.value &&
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable;
  const touched: string[] = [];
  let failure: unknown;
  try {
    body();
  } catch (err) {
    failure = err;
  } finally {
    targets.forEach(([name, target], i) => {
      const saved = before[i] as Map<string | symbol, PropertyDescriptor>;
      for (const key of Reflect.ownKeys(target)) {
        const original = saved.get(key);
        if (original === undefined) {
          touched.push(`${name}.${String(key)} added`);
          Reflect.deleteProperty(target, key);
        } else if (!same(original, Reflect.getOwnPropertyDescriptor(target, key) as PropertyDescriptor)) {
          touched.push(`${name}.${String(key)} changed`);
          Reflect.defineProperty(target, key, original);
        }
      }
    });
  }
  expect(touched, 'shared built-ins touched').toEqual([]);
  if (failure !== undefined) throw failure;
}

// ---------------------------------------------------------------------------
// Valid streams
// ---------------------------------------------------------------------------

describe('ChunkMerger: valid streams', () => {
  it('merges a single row with one cell', () => {
    expect(
      merge(chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'value-VAL', commit: true })),
    ).toEqual([{ key: 'RK', bytes: 2 + 9, cells: ['A:C@100=value-VAL'] }]);
  });

  it('emits Buffers and numbers in the RowData shape', () => {
    const merger = new ChunkMerger();
    const [out] = feed(merger, [
      [chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '1700000000000000', value: 'v', commit: true })],
    ]);
    const row = out?.row as RowData;
    expect(Buffer.isBuffer(row.key)).toBe(true);
    expect(row.key.equals(Buffer.from('RK'))).toBe(true);
    expect(Object.keys(row)).toEqual(['key', 'cells']);
    const cell = row.cells['A']?.['C']?.[0];
    expect(Buffer.isBuffer(cell?.value)).toBe(true);
    expect(cell).toEqual({ value: Buffer.from('v'), timestampMicros: 1700000000000000 });
  });

  it('merges two rows', () => {
    expect(
      merge(
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C', ts: '100', value: 'value-VAL_1', commit: true }),
        chunk({ key: 'RK_2', family: 'A', qualifier: 'C', ts: '100', value: 'value-VAL_2', commit: true }),
      ),
    ).toEqual([
      { key: 'RK_1', bytes: 4 + 11, cells: ['A:C@100=value-VAL_1'] },
      { key: 'RK_2', bytes: 4 + 11, cells: ['A:C@100=value-VAL_2'] },
    ]);
  });

  it('reads an unset timestamp as 0 (also in a second row)', () => {
    expect(
      merge(
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C', value: 'value-VAL', commit: true }),
        chunk({ key: 'RK_2', family: 'A', qualifier: 'C', ts: null, value: 'value-VAL', commit: true }),
      ),
    ).toEqual([
      { key: 'RK_1', bytes: 13, cells: ['A:C@0=value-VAL'] },
      { key: 'RK_2', bytes: 13, cells: ['A:C@0=value-VAL'] },
    ]);
  });

  it('converts timestamps per cell, including runs of equal and changing strings', () => {
    expect(
      merge(
        chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '1000', value: 'a' }),
        chunk({ ts: '1000', value: 'b' }),
        chunk({ ts: '999', value: 'c' }),
        chunk({ value: 'd' }),
        chunk({ ts: '1000', value: 'e' }),
        chunk({ ts: 7, value: 'f', commit: true }),
        chunk({ key: 'RK2', family: 'A', qualifier: 'C', ts: '1000', value: 'g', commit: true }),
      ).map((r) => r.cells),
    ).toEqual([['A:C@1000=a', 'A:C@1000=b', 'A:C@999=c', 'A:C@0=d', 'A:C@1000=e', 'A:C@7=f'], ['A:C@1000=g']]);
  });

  it('keeps an empty value (unset or zero-length), in one row and across two rows', () => {
    expect(
      merge(
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C', ts: '100', commit: true }),
        chunk({ key: 'RK_2', family: 'A', qualifier: 'C', ts: '200', value: '', commit: true }),
      ),
    ).toEqual([
      { key: 'RK_1', bytes: 4, cells: ['A:C@100='] },
      { key: 'RK_2', bytes: 4, cells: ['A:C@200='] },
    ]);
  });

  it('treats a chunk naming neither family nor qualifier as the next cell of the same column, in arrival order', () => {
    expect(
      merge(
        chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '102', value: 'value-VAL_1' }),
        chunk({ ts: '101', value: 'value-VAL_2' }),
        chunk({ ts: '100', value: 'value-VAL_3', commit: true }),
      ),
    ).toEqual([
      { key: 'RK', bytes: 2 + 3 * 11, cells: ['A:C@102=value-VAL_1', 'A:C@101=value-VAL_2', 'A:C@100=value-VAL_3'] },
    ]);
  });

  it('gives a bare commit chunk an empty cell at ts 0 in the current column', () => {
    expect(
      merge(
        chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'value-VAL', commit: false }),
        chunk({ commit: true }),
      ),
    ).toEqual([{ key: 'RK', bytes: 11, cells: ['A:C@100=value-VAL', 'A:C@0='] }]);
  });

  it('keeps multiple cells per column in one row and leaves the next row separate', () => {
    expect(
      merge(
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C', ts: '100', value: 'v1' }),
        chunk({ ts: '99', value: 'v2', commit: true }),
        chunk({ key: 'RK_2', family: 'A', qualifier: 'C', ts: '100', value: 'v3' }),
        chunk({ ts: '98', value: 'v4', commit: true }),
      ),
    ).toEqual([
      { key: 'RK_1', bytes: 4 + 4, cells: ['A:C@100=v1', 'A:C@99=v2'] },
      { key: 'RK_2', bytes: 4 + 4, cells: ['A:C@100=v3', 'A:C@98=v4'] },
    ]);
  });

  it('switches qualifier within a family and family with a qualifier', () => {
    expect(
      merge(
        chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'a1' }),
        chunk({ qualifier: 'D', ts: '100', value: 'a2' }),
        chunk({ ts: '99', value: 'a3' }),
        chunk({ family: 'B', qualifier: 'E', ts: '100', value: 'b1' }),
        chunk({ family: 'C', qualifier: 'C', ts: '100', value: 'c1', commit: true }),
      ),
    ).toEqual([
      { key: 'RK', bytes: 2 + 10, cells: ['A:C@100=a1', 'A:D@100=a2', 'A:D@99=a3', 'B:E@100=b1', 'C:C@100=c1'] },
    ]);
  });

  it('keeps the current family when only the qualifier changes after a family switch', () => {
    const [row] = merge(
      chunk({ key: 'RK', family: 'A', qualifier: 'C', value: '1' }),
      chunk({ family: 'B', qualifier: 'C', value: '2' }),
      chunk({ qualifier: 'D', value: '3', commit: true }),
    );
    expect(row?.cells).toEqual(['A:C@0=1', 'B:C@0=2', 'B:D@0=3']);
  });

  it('merges a revisited family (new and existing qualifier) into the same family object', () => {
    const merger = new ChunkMerger();
    const [out] = feed(merger, [
      [
        chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '1', value: 'a' }),
        chunk({ family: 'B', qualifier: 'C', ts: '2', value: 'b' }),
        chunk({ family: 'A', qualifier: 'D', ts: '3', value: 'c' }),
        chunk({ family: 'B', qualifier: 'X', ts: '4', value: 'd' }),
        chunk({ family: 'A', qualifier: 'C', ts: '5', value: 'e' }),
        chunk({ qualifier: 'D', ts: '6', value: 'f', commit: true }),
      ],
    ]);
    expect(out?.cells).toEqual(['A:C@1=a', 'A:C@5=e', 'A:D@3=c', 'A:D@6=f', 'B:C@2=b', 'B:X@4=d']);
    expect(Object.keys(out?.row.cells ?? {})).toEqual(['A', 'B']);
    expect(out?.bytes).toBe(2 + 6);
  });

  it('accepts a restated row key, family and qualifier of the current cell', () => {
    expect(
      merge(
        chunk({ key: 'RK', family: 'A', qualifier: 'C', value: '1' }),
        chunk({ key: 'RK', family: 'A', qualifier: 'C', value: '2' }),
        chunk({ key: 'RK', value: '3' }),
        chunk({ key: '', qualifier: 'C', value: '4', commit: true }),
      ),
    ).toEqual([{ key: 'RK', bytes: 6, cells: ['A:C@0=1', 'A:C@0=2', 'A:C@0=3', 'A:C@0=4'] }]);
  });

  it('accepts an empty qualifier and an empty family name', () => {
    expect(
      merge(
        chunk({ key: 'RK', family: 'A', qualifier: '', value: '1' }),
        chunk({ qualifier: 'C', value: '2' }),
        chunk({ qualifier: '', value: '3' }),
        chunk({ family: '', qualifier: 'Z', value: '4', commit: true }),
      ),
    ).toEqual([{ key: 'RK', bytes: 6, cells: ['A:@0=1', 'A:@0=3', 'A:C@0=2', ':Z@0=4'] }]);
  });

  it('decodes a qualifier as UTF-8 text', () => {
    const [row] = merge(
      chunk({ key: 'RK', family: 'A', qualifier: Buffer.from('größe', 'utf8'), value: 'v', commit: true }),
    );
    expect(row?.cells).toEqual(['A:größe@0=v']);
  });

  describe('split values', () => {
    it('joins a value split over 2 chunks, the last committing', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'v', valueSize: 9, commit: false }),
          chunk({ value: 'alue-VAL', commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 2 + 9, cells: ['A:C@100=value-VAL'] }]);
    });

    it('joins a value split four ways, ignoring explicit valueSize 0 on the last chunk', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'v', valueSize: 9 }),
          chunk({ value: 'a', valueSize: 9 }),
          chunk({ value: 'lue-', valueSize: 9 }),
          chunk({ value: 'VAL', valueSize: 0, commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 11, cells: ['A:C@100=value-VAL'] }]);
    });

    it('joins split parts that are empty or unset', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '5', value: '', valueSize: 3 }),
          chunk({ valueSize: 3 }),
          chunk({ value: 'ab', valueSize: 3 }),
          chunk({ value: '', valueSize: 3 }),
          chunk({ value: 'c', commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 5, cells: ['A:C@5=abc'] }]);
    });

    it('keeps the first chunk timestamp of a split value and continues with further cells', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'v', valueSize: 9 }),
          chunk({ value: 'alue-VAL' }),
          chunk({ ts: '99', value: 'second' }),
          chunk({ qualifier: 'D', ts: '98', value: 'thi', valueSize: 5 }),
          chunk({ value: 'rd', commit: false }),
          chunk({ family: 'B', qualifier: 'E', ts: '97', value: 'fo', valueSize: 4 }),
          chunk({ value: 'u', valueSize: 4 }),
          chunk({ value: 'r', commit: true }),
        ),
      ).toEqual([
        {
          key: 'RK',
          bytes: 2 + 9 + 6 + 5 + 4,
          cells: ['A:C@100=value-VAL', 'A:C@99=second', 'A:D@98=third', 'B:E@97=four'],
        },
      ]);
    });

    it('gives a bare commit after a completed split its own empty cell', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'v', valueSize: 9 }),
          chunk({ value: 'alue-VAL', commit: false }),
          chunk({ commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 11, cells: ['A:C@100=value-VAL', 'A:C@0='] }]);
    });

    it('splits values in two rows with the same timestamp', () => {
      expect(
        merge(
          chunk({ key: 'RK_1', family: 'A', qualifier: 'C', ts: '100', value: 'v', valueSize: 11 }),
          chunk({ value: 'alue-VAL_1', commit: true }),
          chunk({ key: 'RK_2', family: 'A', qualifier: 'C', ts: '100', value: 'v', valueSize: 11 }),
          chunk({ value: 'alue-VAL_2', commit: true }),
        ),
      ).toEqual([
        { key: 'RK_1', bytes: 15, cells: ['A:C@100=value-VAL_1'] },
        { key: 'RK_2', bytes: 15, cells: ['A:C@100=value-VAL_2'] },
      ]);
    });
  });

  describe('resets', () => {
    it('drops everything after a reset with nothing following (the stream may end there)', () => {
      const merger = new ChunkMerger();
      expect(feed(merger, [[chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'v' }), RESET]])).toEqual(
        [],
      );
      expect(merger.inRow).toBe(false);
      expect(() => merger.finish()).not.toThrow();
      expect(merger.lastKey).toBeUndefined();
    });

    it('replaces a reset row with new values', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'value-VAL' }),
          chunk({ ts: '99', value: 'older' }),
          RESET,
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '103', value: 'new', commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 5, cells: ['A:C@103=new'] }]);
    });

    it('replaces a reset row with a new qualifier (the old column is gone)', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'x' }),
          RESET,
          chunk({ key: 'RK', family: 'A', qualifier: 'D', ts: '100', value: 'y', commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 3, cells: ['A:D@100=y'] }]);
    });

    it('replaces a reset row with a row of another key, greater or smaller than the reset one', () => {
      expect(
        merge(
          chunk({ key: 'RK_1', family: 'A', qualifier: 'C', value: 'one', commit: true }),
          chunk({ key: 'RK_3', family: 'A', qualifier: 'C', value: 'x' }),
          RESET,
          chunk({ key: 'RK_2', family: 'B', qualifier: 'D', value: 'two', commit: true }),
          chunk({ key: 'RK_4', family: 'A', qualifier: 'C', value: 'y' }),
          { resetRow: true, commitRow: false },
          chunk({ key: 'RK_5', family: 'A', qualifier: 'C', value: 'five', commit: true }),
        ),
      ).toEqual([
        { key: 'RK_1', bytes: 7, cells: ['A:C@0=one'] },
        { key: 'RK_2', bytes: 7, cells: ['B:D@0=two'] },
        { key: 'RK_5', bytes: 8, cells: ['A:C@0=five'] },
      ]);
    });

    it('resets in the middle of a split value and restarts the cell', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'va', valueSize: 9 }),
          chunk({ value: 'lue', valueSize: 9 }),
          RESET,
          chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'val', valueSize: 9 }),
          chunk({ value: 'ue-VAL', commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 11, cells: ['A:C@100=value-VAL'] }]);
    });

    it('survives two resets in a row of the same key and counts only the final bytes', () => {
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'aaaaaaaaaa' }),
          RESET,
          chunk({ key: 'RK', family: 'B', qualifier: 'D', value: 'bbbbbbbbbb' }),
          chunk({ qualifier: 'E', value: 'cc' }),
          RESET,
          chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'z' }),
          chunk({ value: 'y', commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 4, cells: ['A:C@0=z', 'A:C@0=y'] }]);
    });

    it('accepts a reset whose other fields hold only zero values', () => {
      const zeroReset: ReadRowsChunk = {
        resetRow: true,
        rowKey: Buffer.alloc(0),
        familyName: null,
        qualifier: null,
        timestampMicros: '0',
        value: Buffer.alloc(0),
        valueSize: 0,
        commitRow: false,
      };
      expect(
        merge(
          chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'x' }),
          zeroReset,
          chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'y', commit: true }),
        ),
      ).toEqual([{ key: 'RK', bytes: 3, cells: ['A:C@0=y'] }]);
    });

    it('does not move lastKey on a reset', () => {
      const merger = new ChunkMerger();
      feed(merger, [
        [
          chunk({ key: 'a', family: 'A', qualifier: 'C', commit: true }),
          chunk({ key: 'c', family: 'A', qualifier: 'C' }),
          RESET,
        ],
      ]);
      expect(merger.lastKey?.toString()).toBe('a');
      // 'b' sorts before the reset row 'c' but after the last committed row 'a'.
      expect(
        feed(merger, [[chunk({ key: 'b', family: 'A', qualifier: 'C', commit: true })]]).map((r) => r.key),
      ).toEqual(['b']);
      expect(merger.lastKey?.toString()).toBe('b');
    });
  });

  describe('prototype-named families and qualifiers', () => {
    it('stores "__proto__" as an own enumerable family and leaves prototypes alone', () => {
      withoutPollution(() => {
        const merger = new ChunkMerger();
        const [out] = feed(merger, [
          [
            chunk({ key: 'RK', family: '__proto__', qualifier: 'q', ts: '1', value: 'v' }),
            chunk({ ts: '2', value: 'w', commit: true }),
          ],
        ]);
        const cells = out?.row.cells as Record<string, unknown>;
        expect(Object.getPrototypeOf(cells)).toBe(Object.prototype);
        expect(Object.keys(cells)).toEqual(['__proto__']);
        const descriptor = Object.getOwnPropertyDescriptor(cells, '__proto__');
        expect(descriptor?.enumerable).toBe(true);
        const family = descriptor?.value as Record<string, unknown>;
        expect(Object.getPrototypeOf(family)).toBe(Object.prototype);
        expect(Object.keys(family)).toEqual(['q']);
        expect(out?.cells).toEqual(['__proto__:q@1=v', '__proto__:q@2=w']);
        expect(({} as Record<string, unknown>)['q']).toBeUndefined();
      });
    });

    it('stores "__proto__" as an own enumerable qualifier and leaves prototypes alone', () => {
      withoutPollution(() => {
        const merger = new ChunkMerger();
        const [out] = feed(merger, [
          [
            chunk({ key: 'RK', family: 'f', qualifier: '__proto__', ts: '1', value: 'v' }),
            chunk({ qualifier: 'other', ts: '1', value: 'o' }),
            chunk({ qualifier: '__proto__', ts: '0', value: 'w', commit: true }),
          ],
        ]);
        const family = out?.row.cells['f'] as Record<string, unknown>;
        expect(Object.getPrototypeOf(family)).toBe(Object.prototype);
        expect(Object.keys(family)).toEqual(['__proto__', 'other']);
        const descriptor = Object.getOwnPropertyDescriptor(family, '__proto__');
        expect(descriptor?.enumerable).toBe(true);
        expect(Array.isArray(descriptor?.value)).toBe(true);
        expect(out?.cells).toEqual(['f:__proto__@1=v', 'f:__proto__@0=w', 'f:other@1=o']);
      });
    });

    it('stores "__proto__" as both family and qualifier in two rows', () => {
      withoutPollution(() => {
        const rows = merge(
          chunk({ key: 'a', family: '__proto__', qualifier: '__proto__', value: '1', commit: true }),
          chunk({ key: 'b', family: '__proto__', qualifier: '__proto__', value: '2', commit: true }),
        );
        expect(rows.map((r) => r.cells)).toEqual([['__proto__:__proto__@0=1'], ['__proto__:__proto__@0=2']]);
      });
    });

    it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
      'stores Object.prototype member name %j as a plain family and qualifier',
      (name) => {
        withoutPollution(() => {
          const rows = merge(
            chunk({ key: 'RK', family: name, qualifier: 'q', value: '1' }),
            chunk({ family: 'f', qualifier: name, value: '2' }),
            chunk({ value: '3', commit: true }),
          );
          expect(rows).toEqual([{ key: 'RK', bytes: 5, cells: [`${name}:q@0=1`, `f:${name}@0=2`, `f:${name}@0=3`] }]);
        });
      },
    );
  });

  it('accepts Uint8Array (non-Buffer) keys, qualifiers and values, including views at an offset', () => {
    const view = (text: string): Uint8Array => {
      const backing = new Uint8Array(text.length + 4).fill(0x21);
      backing.set(Buffer.from(text, 'latin1'), 2);
      return backing.subarray(2, 2 + text.length);
    };
    const merger = new ChunkMerger();
    const rows = feed(merger, [
      [
        {
          rowKey: view('RK_1'),
          familyName: { value: 'A' },
          qualifier: { value: view('C') },
          timestampMicros: '10',
          value: view('va'),
          valueSize: 5,
        },
        { value: view('lue') },
        { value: new Uint8Array([0x01, 0xff]), commitRow: true },
        {
          rowKey: new Uint8Array([0x52, 0x4b, 0x5f, 0x32]),
          familyName: { value: 'A' },
          qualifier: { value: new Uint8Array([0x44]) },
          value: view('x'),
          commitRow: true,
        },
      ],
    ]);
    expect(rows.map(({ key, bytes: count, cells }) => ({ key, bytes: count, cells }))).toEqual([
      { key: 'RK_1', bytes: 4 + 5 + 2, cells: ['A:C@10=value', 'A:C@0=0x01ff'] },
      { key: 'RK_2', bytes: 4 + 1, cells: ['A:D@0=x'] },
    ]);
    for (const { row } of rows) {
      expect(Buffer.isBuffer(row.key)).toBe(true);
      for (const columns of Object.values(row.cells))
        for (const versions of Object.values(columns))
          for (const cell of versions) expect(Buffer.isBuffer(cell.value)).toBe(true);
    }
    expect(Buffer.isBuffer(merger.lastKey)).toBe(true);
    expect(merger.lastKey?.toString()).toBe('RK_2');
  });

  it('compares Uint8Array keys by their bytes (not by the backing buffer)', () => {
    const backing = Buffer.from('zzab');
    expect(
      merge(
        {
          rowKey: new Uint8Array([0x61]),
          familyName: { value: 'A' },
          qualifier: { value: Buffer.from('C') },
          commitRow: true,
        },
        // 'ab' viewed inside a buffer whose first bytes ('zz') sort higher
        {
          rowKey: new Uint8Array(backing.buffer, backing.byteOffset + 2, 2),
          familyName: { value: 'A' },
          qualifier: { value: Buffer.from('C') },
          commitRow: true,
        },
      ).map((r) => r.key),
    ).toEqual(['a', 'ab']);
  });

  it('tracks lastKey (last committed row) and inRow', () => {
    const merger = new ChunkMerger();
    expect(merger.lastKey).toBeUndefined();
    expect(merger.inRow).toBe(false);
    feed(merger, [[chunk({ key: 'k1', family: 'A', qualifier: 'C', value: 'v', valueSize: 2 })]]);
    expect(merger.inRow).toBe(true);
    expect(merger.lastKey).toBeUndefined();
    feed(merger, [[chunk({ value: 'w', commit: true })]]);
    expect(merger.inRow).toBe(false);
    expect(merger.lastKey?.toString()).toBe('k1');
    feed(merger, [[chunk({ key: 'k2', family: 'A', qualifier: 'C' })]]);
    expect(merger.inRow).toBe(true);
    expect(merger.lastKey?.toString()).toBe('k1');
    feed(merger, [[RESET]]);
    expect(merger.inRow).toBe(false);
    expect(merger.lastKey?.toString()).toBe('k1');
    feed(merger, [[chunk({ key: 'k3', family: 'A', qualifier: 'C', commit: true })]]);
    expect(merger.inRow).toBe(false);
    expect(merger.lastKey?.toString()).toBe('k3');
  });

  it('emits each row during the push that commits it, across pushes and with empty pushes', () => {
    const merger = new ChunkMerger();
    const emitted = feed(merger, [
      [
        chunk({ key: 'a', family: 'A', qualifier: 'C', value: '1', commit: true }),
        chunk({ key: 'b', family: 'A', qualifier: 'C', value: '2' }),
      ],
      [],
      [chunk({ value: '3', valueSize: 3 })],
      [
        chunk({ value: '45', commit: true }),
        chunk({ key: 'c', family: 'A', qualifier: 'C', value: '6', commit: true }),
        chunk({ key: 'd', family: 'B', qualifier: 'D', value: '7' }),
      ],
      [chunk({ commit: true })],
    ]);
    expect(emitted.map(({ push, key, bytes: count, cells }) => ({ push, key, bytes: count, cells }))).toEqual([
      { push: 0, key: 'a', bytes: 2, cells: ['A:C@0=1'] },
      { push: 3, key: 'b', bytes: 1 + 1 + 3, cells: ['A:C@0=2', 'A:C@0=345'] },
      { push: 3, key: 'c', bytes: 2, cells: ['A:C@0=6'] },
      { push: 4, key: 'd', bytes: 2, cells: ['B:D@0=7', 'B:D@0='] },
    ]);
    expect(() => merger.finish()).not.toThrow();
  });

  it('emits a committed row before a later chunk of the same push fails', () => {
    const emitted = expectInvalid(
      [chunk({ key: 'a', family: 'A', qualifier: 'C', value: '1', commit: true }), RESET],
      /reset arrived outside a row/,
    );
    expect(emitted.map((r) => r.key)).toEqual(['a']);
  });

  it('emits rows whose cells are independent of later rows', () => {
    const merger = new ChunkMerger();
    const emitted = feed(merger, [
      [chunk({ key: 'a', family: 'A', qualifier: 'C', value: '1', commit: true })],
      [chunk({ key: 'b', family: 'A', qualifier: 'C', value: '2', commit: true })],
    ]);
    expect(emitted[0]?.row.cells).not.toBe(emitted[1]?.row.cells);
    expect(emitted.map((r) => cellsOf(r.row))).toEqual([['A:C@0=1'], ['A:C@0=2']]);
  });

  it('counts key plus value bytes (multi-byte, binary and empty values; not family or qualifier)', () => {
    expect(
      merge(
        chunk({
          key: Buffer.from([0, 1, 2]),
          family: 'a-long-family-name',
          qualifier: 'a-long-qualifier',
          value: Buffer.alloc(100, 7),
        }),
        chunk({ value: 'é' }),
        chunk({ value: '' }),
        chunk({ qualifier: 'x', value: 'abc', valueSize: 7 }),
        chunk({ value: 'defg', commit: true }),
      ).map((r) => r.bytes),
    ).toEqual([3 + 100 + 2 + 0 + 7]);
  });

  it('does not throw on finish() for an empty stream or one ending after a commit', () => {
    const merger = new ChunkMerger();
    expect(() => merger.finish()).not.toThrow();
    feed(merger, [[chunk({ key: 'a', family: 'A', qualifier: 'C', value: 'v', commit: true })]]);
    expect(() => merger.finish()).not.toThrow();
  });
});

// ---------------------------------------------------------------------------
// Invalid streams
// ---------------------------------------------------------------------------

describe('ChunkMerger: invalid streams', () => {
  const first = chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'v' });

  it.each<[string, ReadRowsChunk]>([
    ['no row key', chunk({ family: 'A', qualifier: 'C', ts: '100', value: 'v', commit: true })],
    ['an empty row key', chunk({ key: '', family: 'A', qualifier: 'C', value: 'v', commit: true })],
    [
      'a null row key',
      { rowKey: null, familyName: { value: 'A' }, qualifier: { value: Buffer.from('C') }, commitRow: true },
    ],
    ['only commitRow', chunk({ commit: true })],
    ['only a value', chunk({ value: 'v' })],
  ])('rejects a first chunk with %s', (_, bad) => {
    expectInvalid([bad], /row key must be set on the first chunk of a row/);
  });

  it('rejects a new row without a row key after a committed row', () => {
    expectInvalid(
      [
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C', value: 'v', commit: true }),
        chunk({ family: 'A', qualifier: 'C', value: 'w', commit: true }),
      ],
      /row key must be set/,
    );
  });

  it('rejects a row without a key after a reset', () => {
    expectInvalid(
      [first, RESET, chunk({ family: 'A', qualifier: 'C', value: 'w', commit: true })],
      /row key must be set/,
    );
    expectInvalid([first, RESET, chunk({ value: 'w', commit: true })], /row key must be set/);
  });

  it('rejects a first chunk without a family', () => {
    expectInvalid(
      [chunk({ key: 'RK', ts: '100', value: 'v', commit: true })],
      /first chunk of a row must name a family/,
    );
    expectInvalid(
      [chunk({ key: 'RK', qualifier: 'C', value: 'v', commit: true })],
      /first chunk of a row must name a family/,
    );
    expectInvalid(
      [
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C', commit: true }),
        chunk({ key: 'RK_2', qualifier: 'C', value: 'v', commit: true }),
      ],
      /must name a family/,
    );
  });

  it('reads a family or qualifier wrapper without a value as the empty name (the proto3 default), not as a missing one', () => {
    const merger = new ChunkMerger();
    const rows: RowData[] = [];
    merger.push(
      [
        {
          rowKey: Buffer.from('RK'),
          familyName: { value: null },
          qualifier: { value: null },
          value: Buffer.from('v'),
          commitRow: true,
        },
      ],
      (row) => rows.push(row),
    );
    expect(rows.map((row) => row.cells)).toEqual([{ '': { '': [{ value: Buffer.from('v'), timestampMicros: 0 }] } }]);
  });

  it('rejects a first chunk whose family wrapper holds no name and that has no qualifier', () => {
    expectInvalid([{ rowKey: Buffer.from('RK'), familyName: {}, value: Buffer.from('v'), commitRow: true }], /family/);
  });

  it('does not carry the previous row family over into the next row (after a commit or a reset)', () => {
    expectInvalid(
      [
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C', commit: true }),
        { rowKey: Buffer.from('RK_2'), qualifier: { value: Buffer.from('D') }, commitRow: true },
      ],
      /first chunk of a row must name a family/,
    );
    expectInvalid(
      [
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C' }),
        RESET,
        { rowKey: Buffer.from('RK_1'), qualifier: { value: Buffer.from('D') }, commitRow: true },
      ],
      /first chunk of a row must name a family/,
    );
  });

  it('rejects a family without a qualifier (first or later chunk)', () => {
    expectInvalid(
      [chunk({ key: 'RK', family: 'A', ts: '100', value: 'v', commit: true })],
      /chunk naming family "A" must also name a qualifier/,
    );
    expectInvalid(
      [first, chunk({ family: 'B', ts: '99', value: 'w', commit: true })],
      /chunk naming family "B" must also name a qualifier/,
    );
    expectInvalid(
      [first, { familyName: { value: 'B' }, qualifier: null, commitRow: true }],
      /family "B" must also name a qualifier/,
    );
  });

  it('rejects a new row key before the current row is committed', () => {
    expectInvalid(
      [first, chunk({ key: 'RK_2', family: 'A', qualifier: 'C', value: 'w', commit: true })],
      /new row key arrived before the previous row was committed/,
    );
    expectInvalid([first, chunk({ key: 'RK_2', value: 'w', commit: true })], /new row key arrived before/);
  });

  it.each<[string, string, string]>([
    ['equal', 'RK', 'RK'],
    ['descending', 'RK_2', 'RK_1'],
    ['a prefix of the previous (shorter, so smaller)', 'RK_1', 'RK'],
  ])('rejects %s row keys across rows', (_, one, two) => {
    const emitted = expectInvalid(
      [
        chunk({ key: one, family: 'A', qualifier: 'C', value: 'v', commit: true }),
        chunk({ key: two, family: 'A', qualifier: 'C', value: 'w', commit: true }),
      ],
      new RegExp(
        `row key ${Buffer.from(two).toString('hex')} does not follow ${Buffer.from(one).toString('hex')} \\(keys must strictly increase\\)`,
      ),
    );
    expect(emitted.map((r) => r.key)).toEqual([one]);
  });

  it('rejects a key not above the last committed row after a reset', () => {
    expectInvalid(
      [
        chunk({ key: 'b', family: 'A', qualifier: 'C', commit: true }),
        chunk({ key: 'c', family: 'A', qualifier: 'C' }),
        RESET,
        chunk({ key: 'b', family: 'A', qualifier: 'C', commit: true }),
      ],
      /row key 62 does not follow 62/,
    );
  });

  it('compares keys as unsigned bytes', () => {
    expectInvalid(
      [
        chunk({ key: Buffer.from([0x80]), family: 'A', qualifier: 'C', commit: true }),
        chunk({ key: Buffer.from([0x7f]), family: 'A', qualifier: 'C', commit: true }),
      ],
      /row key 7f does not follow 80/,
    );
    expect(
      merge(
        chunk({ key: Buffer.from([0x7f]), family: 'A', qualifier: 'C', commit: true }),
        chunk({ key: Buffer.from([0x80]), family: 'A', qualifier: 'C', commit: true }),
      ).map((r) => r.key),
    ).toEqual(['0x7f', '0x80']);
  });

  it('a reversed merger takes strictly decreasing keys and rejects an equal or increasing one', () => {
    const rows = (merger: ChunkMerger, keys: readonly string[]): string[] => {
      const out: string[] = [];
      merger.push(
        keys.map((key) => chunk({ key, family: 'A', qualifier: 'C', value: 'v', commit: true })),
        (row) => out.push(row.key.toString()),
      );
      return out;
    };
    expect(rows(new ChunkMerger(true), ['c', 'b', 'a'])).toEqual(['c', 'b', 'a']);
    for (const [one, two] of [
      ['b', 'b'],
      ['a', 'b'],
      ['b', 'ba'],
    ] as const) {
      const merger = new ChunkMerger(true);
      const err = thrown(() => rows(merger, [one, two]));
      expect(err).toBeInstanceOf(InvalidChunkError);
      expect(err.message).toMatch(
        new RegExp(
          `row key ${Buffer.from(two).toString('hex')} does not follow ${Buffer.from(one).toString('hex')} \\(keys must strictly decrease\\)`,
        ),
      );
    }
  });

  it('rejects a bare reset outside a row (at the start, after a commit, after another reset)', () => {
    expectInvalid([RESET], /reset arrived outside a row/);
    expectInvalid(
      [chunk({ key: 'RK', family: 'A', qualifier: 'C', commit: true }), RESET],
      /reset arrived outside a row/,
    );
    expectInvalid([first, RESET, RESET], /reset arrived outside a row/);
  });

  it.each<[string, ReadRowsChunk]>([
    ['a row key', { resetRow: true, rowKey: Buffer.from('RK') }],
    ['a family', { resetRow: true, familyName: { value: 'A' } }],
    ['an empty family name', { resetRow: true, familyName: { value: '' } }],
    ['a qualifier', { resetRow: true, qualifier: { value: Buffer.from('C') } }],
    ['an empty qualifier', { resetRow: true, qualifier: { value: Buffer.alloc(0) } }],
    ['a value', { resetRow: true, value: Buffer.from('v') }],
    ['a valueSize', { resetRow: true, valueSize: 10 }],
    ['a timestamp', { resetRow: true, timestampMicros: '1000' }],
    ['a timestamp that is not a number', { resetRow: true, timestampMicros: 'abc' }],
    ['commitRow', { resetRow: true, commitRow: true }],
  ])('rejects a reset carrying %s', (_, reset) => {
    const emitted = expectInvalid(
      [first, reset, chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'w', commit: true })],
      /reset chunk must carry no data/,
    );
    expect(emitted).toEqual([]);
  });

  it('rejects commitRow together with valueSize > 0 (first or continuation chunk of a split)', () => {
    expectInvalid(
      [chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'v', valueSize: 10, commit: true })],
      /chunk with valueSize set cannot commit its row/,
    );
    expectInvalid(
      [
        chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'v', valueSize: 10 }),
        chunk({ value: 'al', valueSize: 10, commit: true }),
      ],
      /valueSize set cannot commit its row/,
    );
    expectInvalid([first, chunk({ value: 'w', valueSize: 1, commit: true })], /valueSize set cannot commit its row/);
  });

  it.each<[string, ReadRowsChunk]>([
    ['the row key', { rowKey: Buffer.from('RK'), value: Buffer.from('alue') }],
    ['another row key', { rowKey: Buffer.from('RL'), value: Buffer.from('alue') }],
    [
      'a family and qualifier',
      { familyName: { value: 'A' }, qualifier: { value: Buffer.from('C') }, value: Buffer.from('alue') },
    ],
    ['a family', { familyName: { value: 'B' }, value: Buffer.from('alue') }],
    ['a qualifier', { qualifier: { value: Buffer.from('C') }, value: Buffer.from('alue') }],
    ['an empty qualifier', { qualifier: { value: Buffer.alloc(0) }, value: Buffer.from('alue') }],
    ['a timestamp', { timestampMicros: '99', value: Buffer.from('alue') }],
    ['a timestamp that is not a number', { timestampMicros: 'abc', value: Buffer.from('alue') }],
  ])('rejects a continuation chunk of a split value carrying %s', (_, continuation) => {
    expectInvalid(
      [
        chunk({ key: 'RK', family: 'A', qualifier: 'C', ts: '100', value: 'v', valueSize: 5 }),
        { ...continuation, commitRow: true },
      ],
      /chunk that continues a split value must carry only value bytes/,
    );
  });

  it('rejects a stream that ends inside an uncommitted row', () => {
    expectInvalid([first], /stream ended inside a row that was never committed/);
    expectInvalid(
      [chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'v', commit: false })],
      /stream ended inside a row/,
    );
    expectInvalid(
      [first, RESET, chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'w' })],
      /stream ended inside a row/,
    );
    const emitted = expectInvalid(
      [
        chunk({ key: 'RK_1', family: 'A', qualifier: 'C', value: 'v', commit: true }),
        chunk({ key: 'RK_2', family: 'A', qualifier: 'C', value: 'w' }),
      ],
      /stream ended inside a row/,
    );
    expect(emitted.map((r) => r.key)).toEqual(['RK_1']);
  });

  it('rejects a stream that ends inside a split value', () => {
    expectInvalid(
      [chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'v', valueSize: 9 })],
      /stream ended inside a row/,
    );
    expectInvalid(
      [
        chunk({ key: 'RK', family: 'A', qualifier: 'C', value: 'v', valueSize: 9 }),
        chunk({ value: 'alue', valueSize: 9 }),
      ],
      /stream ended inside a row/,
    );
  });

  it('finish() succeeds only once the open row is committed', () => {
    const merger = new ChunkMerger();
    feed(merger, [[first]]);
    expect(thrown(() => merger.finish())).toBeInstanceOf(InvalidChunkError);
    feed(merger, [[chunk({ value: 'w', commit: true })]]);
    expect(() => merger.finish()).not.toThrow();
  });
});

// ---------------------------------------------------------------------------
// Property: encode random rows to chunks, merge them back
// ---------------------------------------------------------------------------

interface ModelCell {
  value: Uint8Array;
  /** Decimal string, or undefined for an unset timestamp (read as 0). */
  ts: string | undefined;
  /** Positions (clamped to the value length) where the value is split over chunks. */
  cuts: number[];
  /** Pass the value parts as Uint8Array views at an offset instead of Buffers. */
  asView: boolean;
  /** Restate the row key, family and qualifier on this cell's chunk even when unchanged. */
  restate: boolean;
  /** Spell unset optional fields out as zero values (empty value, `valueSize: 0`, `commitRow: false`). */
  explicitZeros: boolean;
}

interface ModelColumn {
  family: string;
  qualifier: string;
  cells: ModelCell[];
}

interface ModelRow {
  key: Buffer;
  /** Columns in stream order; a family may come back after another one. */
  columns: ModelColumn[];
  /** Each entry replays a prefix of the row's chunks, then resets, before the row itself. */
  resets: { length: number; zeros: boolean }[];
}

const timestampArb = fc.option(
  fc.oneof(
    fc.nat().map(String),
    fc.constantFrom('0', '1000', '1700000000000000', '9007199254740991'),
    fc.maxSafeNat().map(String),
  ),
  {
    nil: undefined,
  },
);

const modelCellArb: fc.Arbitrary<ModelCell> = fc.record({
  value: fc.uint8Array({ maxLength: 20 }),
  ts: timestampArb,
  cuts: fc.array(fc.nat({ max: 20 }), { maxLength: 3 }),
  asView: fc.boolean(),
  restate: fc.boolean(),
  explicitZeros: fc.boolean(),
});

const familyArb = fc.record({
  family: fc.constantFrom('f', 'g', 'cf1', 'family-with.dots'),
  columns: fc.uniqueArray(
    fc.record({
      qualifier: fc.constantFrom('q', 'a', '', 'col', 'größe', 'q2'),
      cells: fc.array(modelCellArb, { minLength: 1, maxLength: 3 }),
    }),
    {
      minLength: 1,
      maxLength: 4,
      selector: (column) => column.qualifier,
    },
  ),
});

const rowBodyArb = fc.record({
  families: fc.uniqueArray(familyArb, { minLength: 1, maxLength: 3, selector: (family) => family.family }),
  /** Sort keys (few distinct values) that interleave columns of different families. */
  order: fc.array(fc.nat({ max: 3 }), { minLength: 12, maxLength: 12 }),
  resets: fc.array(fc.record({ length: fc.nat(), zeros: fc.boolean() }), { maxLength: 2 }),
});

const rowsArb: fc.Arbitrary<ModelRow[]> = fc.array(rowBodyArb, { maxLength: 5 }).chain((bodies) =>
  fc
    .uniqueArray(fc.uint8Array({ minLength: 1, maxLength: 4 }), {
      minLength: bodies.length,
      maxLength: bodies.length,
      comparator: (a, b) => Buffer.compare(a, b) === 0,
    })
    .map((keys) => {
      const sorted = keys.map((k) => Buffer.from(k)).sort(Buffer.compare);
      return bodies.map((body, i): ModelRow => {
        const flat = body.families.flatMap(({ family, columns }) => columns.map((column) => ({ family, ...column })));
        const columns = flat
          .map((column, index) => ({ column, rank: body.order[index] ?? 0, index }))
          .sort((x, y) => x.rank - y.rank || x.index - y.index)
          .map(({ column }) => column);
        return { key: sorted[i] as Buffer, columns, resets: body.resets };
      });
    }),
);

/** The value's parts at the (sorted, clamped) cut positions; a single part when there are no cuts. */
function splitValue(value: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = cuts.map((c) => Math.min(c, value.length)).sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    parts.push(value.subarray(start, point));
    start = point;
  }
  parts.push(value.subarray(start));
  return parts;
}

/** The bytes as a Uint8Array view in the middle of a larger buffer (not a Buffer). */
function offsetView(part: Uint8Array): Uint8Array {
  const backing = new Uint8Array(part.length + 3).fill(0xee);
  backing.set(part, 1);
  return backing.subarray(1, 1 + part.length);
}

/** The chunks of one row as the server might send them; the last one commits. */
function encodeRow(row: ModelRow): ReadRowsChunk[] {
  const chunks: ReadRowsChunk[] = [];
  let family: string | undefined;
  let qualifier: string | undefined;
  for (const column of row.columns) {
    for (const cell of column.cells) {
      const parts = splitValue(cell.value, cell.cuts).map((part) =>
        cell.asView ? offsetView(part) : Buffer.from(part),
      );
      const size = Math.max(cell.value.length, 1);
      const head: { -readonly [K in keyof ReadRowsChunk]: ReadRowsChunk[K] } = {};
      if (chunks.length === 0 || cell.restate) head.rowKey = cell.asView ? offsetView(row.key) : row.key;
      const newFamily = column.family !== family || cell.restate;
      if (newFamily) head.familyName = { value: column.family };
      if (newFamily || column.qualifier !== qualifier)
        head.qualifier = { value: Buffer.from(column.qualifier, 'utf8') };
      family = column.family;
      qualifier = column.qualifier;
      if (cell.ts !== undefined) head.timestampMicros = cell.ts;
      const [firstPart, ...rest] = parts as [Uint8Array, ...Uint8Array[]];
      if (firstPart.length > 0 || cell.explicitZeros) head.value = firstPart;
      if (rest.length > 0) head.valueSize = size;
      else if (cell.explicitZeros) head.valueSize = 0;
      if (cell.explicitZeros) head.commitRow = false;
      chunks.push(head);
      rest.forEach((part, i) => {
        const last = i === rest.length - 1;
        const continuation: { -readonly [K in keyof ReadRowsChunk]: ReadRowsChunk[K] } = {};
        if (part.length > 0 || cell.explicitZeros) continuation.value = part;
        if (!last) continuation.valueSize = size;
        else if (cell.explicitZeros) continuation.valueSize = 0;
        chunks.push(continuation);
      });
    }
  }
  const lastIndex = chunks.length - 1;
  chunks[lastIndex] = { ...chunks[lastIndex], commitRow: true };
  return chunks;
}

/** What the merger must emit for a row: columns grouped by family, both in first-appearance order. */
function expectedRow(row: ModelRow): { key: string; bytes: number; cells: string[] } {
  const families = new Map<string, Map<string, ModelCell[]>>();
  for (const column of row.columns) {
    const columns = families.get(column.family) ?? new Map<string, ModelCell[]>();
    families.set(column.family, columns);
    columns.set(column.qualifier, [...(columns.get(column.qualifier) ?? []), ...column.cells]);
  }
  const cells: string[] = [];
  let bytesCount = row.key.length;
  for (const [family, columns] of families) {
    for (const [qualifier, versions] of columns) {
      for (const cell of versions) {
        cells.push(
          `${family}:${qualifier}@${cell.ts === undefined ? 0 : Number(cell.ts)}=${show(Buffer.from(cell.value), true)}`,
        );
        bytesCount += cell.value.length;
      }
    }
  }
  return { key: show(row.key, true), bytes: bytesCount, cells };
}

describe('ChunkMerger: property', () => {
  it('merges randomly split, reset and grouped chunks back into the original rows', () => {
    fc.assert(
      fc.property(rowsArb, fc.array(fc.nat(), { maxLength: 8 }), (rows, cutSeeds) => {
        const stream: ReadRowsChunk[] = [];
        const commitAt: number[] = [];
        for (const row of rows) {
          const chunks = encodeRow(row);
          for (const reset of row.resets) {
            if (chunks.length < 2) continue;
            // A strict prefix (never the committing chunk), possibly ending inside a split value.
            stream.push(...chunks.slice(0, 1 + (reset.length % (chunks.length - 1))));
            stream.push(
              reset.zeros
                ? {
                    resetRow: true,
                    rowKey: Buffer.alloc(0),
                    familyName: null,
                    qualifier: null,
                    timestampMicros: '0',
                    value: Buffer.alloc(0),
                    valueSize: 0,
                    commitRow: false,
                  }
                : { resetRow: true },
            );
          }
          stream.push(...chunks);
          commitAt.push(stream.length - 1);
        }
        const cuts = cutSeeds.map((seed) => seed % (stream.length + 1)).sort((a, b) => a - b);
        const pushes: ReadRowsChunk[][] = [];
        let start = 0;
        for (const cut of cuts) {
          pushes.push(stream.slice(start, cut));
          start = cut;
        }
        pushes.push(stream.slice(start));
        /** The push holding stream index i is the number of cuts at or before i. */
        const pushOf = (index: number): number => cuts.filter((cut) => cut <= index).length;

        const merger = new ChunkMerger();
        const emitted = feed(merger, pushes, true);
        expect(() => merger.finish()).not.toThrow();
        expect(merger.inRow).toBe(false);
        expect(emitted.map(({ key, bytes: count, cells }) => ({ key, bytes: count, cells }))).toEqual(
          rows.map(expectedRow),
        );
        expect(emitted.map((r) => r.push)).toEqual(commitAt.map(pushOf));
        const lastRow = rows[rows.length - 1];
        expect(merger.lastKey === undefined ? undefined : merger.lastKey.toString('hex')).toBe(
          lastRow?.key.toString('hex'),
        );
      }),
      { numRuns: propertyRuns(1500) },
    );
  });
});

describe('ChunkMerger qualifier names remembered across rows', () => {
  const cellChunk = (key: string | undefined, qualifier: Buffer, commit: boolean): ReadRowsChunk => ({
    ...(key === undefined ? {} : { rowKey: Buffer.from(key), familyName: { value: 'f' } }),
    qualifier: { value: qualifier },
    timestampMicros: '1',
    value: Buffer.from('v'),
    commitRow: commit,
  });

  it('decodes each row’s own qualifiers, whatever order or bytes earlier rows had at the same position', () => {
    const merger = new ChunkMerger();
    const rows: RowData[] = [];
    const reused = Buffer.from('ab');
    merger.push([cellChunk('r1', reused, false), cellChunk(undefined, Buffer.from('cd'), true)], (row) =>
      rows.push(row),
    );
    reused.write('cd'); // a caller reusing its buffer must not change what the merger remembers
    merger.push([cellChunk('r2', Buffer.from('cd'), false), cellChunk(undefined, Buffer.from('ab'), true)], (row) =>
      rows.push(row),
    );
    merger.push(
      [
        cellChunk('r3', Buffer.from('ab'), false),
        cellChunk(undefined, Buffer.from('ce'), false),
        cellChunk(undefined, Buffer.from('é', 'utf8'), true),
      ],
      (row) => rows.push(row),
    );
    expect(rows.map((row) => Object.keys(row.cells['f'] ?? {}))).toEqual([
      ['ab', 'cd'],
      ['cd', 'ab'],
      ['ab', 'ce', 'é'],
    ]);
  });
});
