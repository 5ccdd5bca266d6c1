import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CellData, RowData } from '../../../src/model/driver.js';
import { RowPacker } from '../../../src/read/packed-row.js';

const name = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', '0', '10', '2', 'hasOwnProperty'),
);
const cell = fc.record({
  value: fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
  timestampMicros: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 0, max: 2 ** 52 }).map((ms) => ms * 1000),
  ),
});

/** A row as a driver builds it: own entries only, even for `__proto__`. */
function buildRow(key: Buffer, entries: readonly [string, [string, CellData[]][]][]): RowData {
  const cells: Record<string, Record<string, CellData[]>> = {};
  for (const [family, columns] of entries) {
    const record: Record<string, CellData[]> = Object.hasOwn(cells, family) ? (cells[family] as never) : {};
    for (const [qualifier, versions] of columns)
      Object.defineProperty(record, qualifier, {
        value: versions,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    Object.defineProperty(cells, family, { value: record, enumerable: true, writable: true, configurable: true });
  }
  return { key, cells };
}

const row = fc
  .tuple(
    fc.uint8Array({ minLength: 1, maxLength: 30 }).map((bytes) => Buffer.from(bytes)),
    fc.array(fc.tuple(name, fc.array(fc.tuple(name, fc.array(cell, { maxLength: 3 })), { maxLength: 4 })), {
      maxLength: 3,
    }),
  )
  .map(([key, entries]) => buildRow(key, entries));

/** The row's structure with `Object.entries` (own enumerable entries in order), to compare exactly. */
function shape(data: RowData): unknown {
  return {
    key: [...data.key],
    cells: Object.entries(data.cells).map(([family, columns]) => [
      family,
      Object.entries(columns).map(([qualifier, versions]) => [
        qualifier,
        versions.map((v) => ({ value: [...v.value], timestampMicros: v.timestampMicros })),
      ]),
    ]),
  };
}

describe('RowPacker', () => {
  it('unpacks every row to the same key, families, columns and cells in the same order', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 5 }), (rows) => {
        const packer = new RowPacker();
        const packed = rows.map((r) => packer.pack(r));
        for (const [i, p] of packed.entries()) {
          const unpacked = packer.unpack(p);
          expect(shape(unpacked)).toEqual(shape(rows[i] as RowData));
          expect(Object.getPrototypeOf(unpacked.cells)).toBe(Object.prototype);
        }
      }),
    );
  });

  it('packs a row into one buffer that holds none of the source buffers', () => {
    const key = Buffer.from('07#event#1');
    const value = Buffer.from('hello');
    const packer = new RowPacker();
    const packed = packer.pack(buildRow(key, [['f', [['q', [{ value, timestampMicros: 5000 }]]]]]));
    expect(packed.bytes).toBeInstanceOf(Buffer);
    expect(packed.row).toBeUndefined();
    expect(packed.bytes?.subarray(0, packed.keyLength).toString()).toBe('07#event#1');
    value.fill(0);
    key.fill(0);
    const unpacked = packer.unpack(packed);
    expect(unpacked.key.toString()).toBe('07#event#1');
    expect(unpacked.cells['f']?.['q']?.[0]?.value.toString()).toBe('hello');
    expect(unpacked.cells['f']?.['q']?.[0]?.timestampMicros).toBe(5000);
  });

  it('keeps a row whose family or column is empty, or that is larger than 64 KiB, as it is', () => {
    const packer = new RowPacker();
    const emptyFamily = buildRow(Buffer.from('a'), [['f', []]]);
    const emptyColumn = buildRow(Buffer.from('b'), [['f', [['q', []]]]]);
    const large = buildRow(Buffer.from('c'), [['f', [['q', [{ value: Buffer.alloc(70_000), timestampMicros: 0 }]]]]]);
    for (const r of [emptyFamily, emptyColumn, large]) {
      const packed = packer.pack(r);
      expect(packed.bytes).toBeUndefined();
      expect(packer.unpack(packed)).toBe(r);
    }
    expect(packer.pack(large).size).toBeGreaterThan(70_000);
  });
});
