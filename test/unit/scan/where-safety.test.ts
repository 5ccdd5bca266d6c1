import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import { KeyPartRange, range } from '../../../src/scan/scan-query.js';
import type { ScanQuery } from '../../../src/scan/scan-query.js';
import { encodeCursor } from '../../../src/scan/cursor.js';

@Entity({ table: 'orders' })
@Family('d')
class Order {
  @KeyPart(0, { type: 'string' }) tenantId!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
  @Column({ family: 'd', type: 'string' }) item?: string;
}

const schema = compileEntity(Order);
const plan = (query: unknown) => planScan(schema, query as ScanQuery<Order>);

describe('where: ranges only through range()', () => {
  it('rejects a plain object parsed from JSON where a key value is expected (no operator injection)', () => {
    const where = JSON.parse('{"tenantId":{"gt":"\\u0000"}}') as unknown;
    expect(() => plan({ where })).toThrow(ValidationError);
    expect(() => plan({ where })).toThrow(/Order\.tenantId.*range\(/s);
  });

  it('rejects arrays, Buffers and objects of the wrong type as key values', () => {
    for (const value of [[], ['t1'], Buffer.from('t1'), { gte: 't1' }, Object.create(null), new Map()]) {
      expect(() => plan({ where: { tenantId: value } })).toThrow(ValidationError);
    }
    expect(() => plan({ where: { tenantId: 't1', at: { gte: new Date(0) } } })).toThrow(ValidationError);
  });

  it('accepts a range built with range(), frozen and not JSON-constructible', () => {
    const bounds = range({ gte: new Date(0), lt: new Date(1000) });
    expect(bounds).toBeInstanceOf(KeyPartRange);
    expect(Object.isFrozen(bounds)).toBe(true);
    const p = plan({ where: { tenantId: 't1', at: bounds } });
    expect(p.sources[0]?.range.start.key.toString()).toBe('t1#1970-01-01T00:00:00.000Z');
    expect(p.sources[0]?.range.end?.key.toString()).toBe('t1#1970-01-01T00:00:01.000Z');
  });

  it('a range() of unknown or doubled bounds or non-object input is rejected when planned, naming the key part', () => {
    for (const bounds of [
      { gte: 1, gt: 2 },
      { lt: 1, lte: 2 },
      { from: 1 },
      null,
      JSON.parse('{"__proto__":{"gte":1}}') as unknown,
    ]) {
      const bad = range(bounds as never);
      expect(() => plan({ where: { tenantId: 't1', at: bad } })).toThrow(ValidationError);
      expect(() => plan({ where: { tenantId: 't1', at: bad } })).toThrow(/^Order\.at: range\(\) .*Fix: /);
      // never readable as an open range
      expect(() => bad.gte).toThrow(ValidationError);
    }
  });

  it('an inverted range is a ValidationError, not an empty result', () => {
    expect(() => plan({ where: { tenantId: range({ gte: 'b', lt: 'a' }) } })).toThrow(/inverted|empty/);
    expect(() => plan({ where: { tenantId: range({ gt: 'a', lte: 'a' }) } })).toThrow(ValidationError);
    expect(() => plan({ where: { tenantId: range({ gte: 'a', lt: 'a' }) } })).toThrow(ValidationError);
    expect(() => plan({ where: { tenantId: 't', at: range({ gte: new Date(5), lte: new Date(4) }) } })).toThrow(
      ValidationError,
    );
    expect(() => plan({ where: { tenantId: range({ gte: 'a', lte: 'a' }) } })).not.toThrow();
  });
});

describe('scan options are validated with ValidationError', () => {
  it.each([
    ['order', { order: 'desc' }],
    ['order', { order: 1 }],
    ['limit', { limit: -1 }],
    ['limit', { limit: 1.5 }],
    ['limit', { limit: '10' }],
    ['limit', { limit: Number.NaN }],
    ['concurrency', { concurrency: 0 }],
    ['concurrency', { concurrency: 1e7 }],
    ['concurrency', { concurrency: '4' }],
    ['cursor', { cursor: 42 }],
    ['select', { select: 'item' }],
    ['select', { select: [{}] }],
    ['versions', { versions: 0 }],
    ['query', null],
    ['query', 'x'],
    ['where', { where: 'tenant' }],
    ['where', { where: [] }],
  ])('%s: %j', (_name, query) => {
    expect(() => plan(query)).toThrow(ValidationError);
  });
});

describe('forged cursors cannot read outside the query', () => {
  const within = (key: Buffer, original: ReturnType<typeof plan>['sources'][number]['range']): boolean =>
    Buffer.compare(key, original.start.key) >= 0 &&
    (original.end === undefined || Buffer.compare(key, original.end.key) <= 0);

  it.each([
    ['before the range (another tenant)', 'a#2024-01-01T00:00:00.000Z'],
    ['after the range', 'z#2024-01-01T00:00:00.000Z'],
    ['inside the range', 't1#2024-01-01T00:00:00.000Z'],
    ['empty', ''],
  ])('an ordered cursor whose key is %s stays inside the tenant', (_label, lastKey) => {
    const base = plan({ where: { tenantId: 't1' } });
    const original = base.sources[0]!.range;
    const forged = encodeCursor({ kind: 'ordered', lastKey: Buffer.from(lastKey), scope: base.scope });
    for (const source of plan({ where: { tenantId: 't1' }, cursor: forged }).sources) {
      expect(within(source.range.start.key, original)).toBe(true);
      expect(source.range.end).toEqual(original.end);
    }
  });

  it('an unordered cursor pointing into another tenant reads the query range only', () => {
    const base = plan({ where: { tenantId: 't1' }, order: 'none' });
    const original = base.sources[0]!.range;
    const forged = encodeCursor({
      kind: 'unordered',
      sources: [{ lastKey: Buffer.from('a'), finished: false }],
      scope: base.scope,
    });
    const [source] = plan({ where: { tenantId: 't1' }, order: 'none', cursor: forged }).sources;
    expect(source?.range).toEqual(original);
  });

  it("a cursor of another tenant's query is rejected", () => {
    const other = plan({ where: { tenantId: 't2' } });
    const cursor = encodeCursor({ kind: 'ordered', lastKey: Buffer.from('t2#x'), scope: other.scope });
    expect(() => plan({ where: { tenantId: 't1' }, cursor })).toThrow(ValidationError);
  });
});
