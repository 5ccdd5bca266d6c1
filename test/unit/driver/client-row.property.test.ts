import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellValueBytes, fromClientRow, timestampMicros } from '../../../src/driver/client-row.js';
import type { RowData } from '../../../src/driver/driver.js';

/** `timestampMicros` before the digit fast path. */
function referenceMicros(value: unknown): number {
  const micros = Number(typeof value === 'number' ? value : String(value));
  if (!Number.isFinite(micros)) throw new TypeError(`unexpected cell timestamp ${String(value)} from the client`);
  return micros;
}

/** `cellValueBytes` before the BigInt-free int64 writer. */
function referenceBytes(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    const bytes = Buffer.alloc(8);
    bytes.writeBigInt64BE(BigInt(value));
    return bytes;
  }
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new TypeError(`unexpected cell value of type ${typeof value} from the client (expected bytes)`);
}

/** `fromClientRow` before the timestamp memo (one conversion per cell). */
function referenceRow(row: unknown): RowData {
  const { id, data } = row as { id: unknown; data?: Record<string, Record<string, readonly { value: unknown; timestamp: unknown }[]>> };
  const key = Buffer.isBuffer(id) ? id : Buffer.from(String(id), 'utf8');
  const put = (target: Record<string, unknown>, k: string, value: unknown): void => {
    if (k === '__proto__') Object.defineProperty(target, k, { value, enumerable: true, writable: true, configurable: true });
    else target[k] = value;
  };
  const cells: Record<string, unknown> = {};
  if (data === undefined) return { key, cells } as RowData;
  for (const family of Object.keys(data)) {
    const columns = data[family] as Record<string, readonly { value: unknown; timestamp: unknown }[]>;
    const out: Record<string, unknown> = {};
    for (const qualifier of Object.keys(columns)) {
      const versions = columns[qualifier] as readonly { value: unknown; timestamp: unknown }[];
      put(out, qualifier, versions.map((cell) => ({ value: referenceBytes(cell.value), timestampMicros: referenceMicros(cell.timestamp) })));
    }
    put(cells, family, out);
  }
  return { key, cells } as RowData;
}

/** A comparable picture of a result or an error: own keys in order, bytes as hex, -0 kept apart from 0. */
function picture(run: () => unknown): unknown {
  const draw = (value: unknown): unknown => {
    if (value instanceof Uint8Array) return `bytes ${Buffer.from(value).toString('hex')} (${value.constructor.name})`;
    if (typeof value === 'number') return Object.is(value, -0) ? '-0' : value;
    if (Array.isArray(value)) return value.map(draw);
    if (typeof value === 'object' && value !== null) return Object.keys(value).map((k) => [k, draw((value as Record<string, unknown>)[k])]);
    return value;
  };
  try {
    return { result: draw(run()) };
  } catch (err) {
    return { error: (err as Error).constructor.name, message: (err as Error).message };
  }
}

const longLike = (text: string): object => ({ low: 0, high: 0, unsigned: false, toString: () => text });

const timestampArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.maxSafeNat().map(String) },
  { weight: 3, arbitrary: fc.bigInt({ min: 1_600_000_000_000_000n, max: 1_900_000_000_000_000n }).map(String) },
  { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: 10n ** 17n }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('9007199254740991', '9007199254740992', '9007199254740993', '9999999999999999', '0000000000000001', '00000000000000001', '0', '-0', ''),
  },
  { weight: 1, arbitrary: fc.constantFrom(' 12', '12 ', '+5', '-5', '1e3', '0x1f', '1.5', 'Infinity', 'NaN', 'abc', '１２') },
  { weight: 2, arbitrary: fc.oneof(fc.maxSafeInteger(), fc.double(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0)) },
  { weight: 1, arbitrary: fc.maxSafeNat().map((n) => longLike(String(n))) },
);

const valueArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 10 }).map((b) => Buffer.from(b)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 10 }) },
  { weight: 3, arbitrary: fc.oneof(fc.maxSafeInteger(), fc.constantFrom(0, -0, 1, -1, 2 ** 31, -(2 ** 31), 2 ** 32, -(2 ** 32), 2 ** 32 - 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER)) },
  { weight: 1, arbitrary: fc.constantFrom(0.5, 2 ** 53, Number.NaN, 'text', null, undefined) },
);

const nameArb = fc.constantFrom('f', 'm', 'a', 'count', 'score', '__proto__', 'constructor', '0', '10', '');

/** Client rows whose cells often share a timestamp (the same string, an equal string, or a fresh one). */
const rowArb = fc
  .record({
    id: fc.oneof(fc.string().map((s) => Buffer.from(s)), fc.string()),
    timestamps: fc.array(timestampArb, { minLength: 1, maxLength: 3 }),
    layout: fc.option(
      fc.array(fc.tuple(nameArb, fc.array(fc.tuple(nameArb, fc.array(fc.tuple(valueArb, fc.nat(), fc.boolean()), { maxLength: 3 })), { maxLength: 5 })), { maxLength: 3 }),
      { nil: undefined },
    ),
  })
  .map(({ id, timestamps, layout }) => {
    if (layout === undefined) return { id };
    const data: Record<string, Record<string, unknown>> = {};
    for (const [family, columns] of layout) {
      const byQualifier: Record<string, unknown> = {};
      for (const [qualifier, versions] of columns) {
        const list = versions.map(([value, pick, copy]) => {
          const timestamp = timestamps[pick % timestamps.length];
          return { value, labels: [], timestamp: copy && typeof timestamp === 'string' ? `${timestamp} `.slice(0, -1) : timestamp };
        });
        Object.defineProperty(byQualifier, qualifier, { value: list, enumerable: true, writable: true, configurable: true });
      }
      Object.defineProperty(data, family, { value: byQualifier, enumerable: true, writable: true, configurable: true });
    }
    return { id, data };
  });

describe('client row conversion fast paths', () => {
  it('timestampMicros equals Number(String(value)) (and throws alike)', () => {
    fc.assert(
      fc.property(timestampArb, (value) => {
        expect(picture(() => timestampMicros(value))).toEqual(picture(() => referenceMicros(value)));
      }),
      { numRuns: 5000 },
    );
  });

  it('cellValueBytes writes the same int64 bytes as writeBigInt64BE', () => {
    fc.assert(
      fc.property(valueArb, (value) => {
        expect(picture(() => cellValueBytes(value))).toEqual(picture(() => referenceBytes(value)));
      }),
      { numRuns: 3000 },
    );
  });

  it('fromClientRow returns what converting every cell on its own returns (or throws alike)', () => {
    fc.assert(
      fc.property(rowArb, (row) => {
        expect(picture(() => fromClientRow(row))).toEqual(picture(() => referenceRow(row)));
      }),
      { numRuns: 3000 },
    );
  });

  it('converts each timestamp as the cell gives it, also after an equal one', () => {
    const row = (timestamps: unknown[]): unknown => ({ id: 'k', data: { f: { q: timestamps.map((timestamp) => ({ value: Buffer.from('v'), timestamp })) } } });
    const micros = (r: RowData): number[] => (r.cells['f']?.['q'] ?? []).map((c) => c.timestampMicros);
    expect(Object.is(micros(fromClientRow(row([0, -0])))[1], -0)).toBe(true);
    expect(micros(fromClientRow(row(['1700000000000000', `${'1700000000000000'} `.trim(), '1700000000000001', '1700000000000000'])))).toEqual([
      1700000000000000, 1700000000000000, 1700000000000001, 1700000000000000,
    ]);
    expect(() => fromClientRow(row(['1', 'x']))).toThrow(/unexpected cell timestamp x/);
  });

  it('keeps the exactness boundary of the digit fast path', () => {
    expect(timestampMicros('9007199254740991')).toBe(9007199254740991);
    expect(timestampMicros('9007199254740993')).toBe(Number('9007199254740993'));
    expect(timestampMicros('')).toBe(0);
    expect(() => timestampMicros('abc')).toThrow(TypeError);
    expect(cellValueBytes(-1).toString('hex')).toBe('ffffffffffffffff');
    expect(cellValueBytes(Number.MIN_SAFE_INTEGER).toString('hex')).toBe('ffe0000000000001');
  });
});
