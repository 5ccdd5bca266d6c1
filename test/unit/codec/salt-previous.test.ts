import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSalt } from '../../../src/metadata/compile-salt.js';
import { MetadataError } from '../../../src/errors/errors.js';
import type { SaltOptions } from '../../../src/model/declarations.js';
import { decodeRowKey, encodeRowKey } from '../../../src/key/physical-key.js';
import { layoutOfKey, previousLayout } from '../../../src/key/previous-layout.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import { keyComponents } from './salt-fixtures.js';

const userKey = keyComponents('userId', 'seq:uint');
const md5Bucket = (text: string, buckets: number) =>
  Number(BigInt(`0x${createHash('md5').update(text, 'utf8').digest('hex')}`) % BigInt(buckets));

@Entity({ table: 'resalted' })
@Salt({ buckets: 16, previous: { buckets: 4, hash: 'java-string-hashcode', format: { width: 1, separator: '-' } } })
@Family('e')
class Resalted {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint', width: 3 }) seq!: number;
  @Column({ family: 'e', type: 'int' }) n?: number;
}

@Entity({ table: 'first-salted' })
@Salt({ buckets: 4, previous: null })
@Family('e')
class FirstSalted {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint', width: 3 }) seq!: number;
}

describe('@Salt previous', () => {
  it('compiles the previous layout like @Salt itself; null for rows that were unsalted', () => {
    const salt = compileSalt('Post', { buckets: 16, previous: { buckets: 4, hash: 'md5-int32' } }, userKey, '#');
    expect(salt.previous).toMatchObject({ buckets: 4, hash: 'md5-int32', width: 2, separator: '#', since: undefined });
    expect(compileSalt('Post', { buckets: 16, previous: null }, userKey, '#').previous).toBeNull();
    expect(compileSalt('Post', { buckets: 16 }, userKey, '#').previous).toBeUndefined();
  });

  it.each([
    [{ previous: 4 }, /previous must be the previous layout's options or null/],
    [{ previous: { buckets: 4, since: { component: 'seq', from: new Date(0) } } }, /unknown option "since"/],
    [{ previous: { buckets: 0 } }, /buckets/],
  ])('rejects %j', (options, message) => {
    const compile = () => compileSalt('Post', { buckets: 16, ...options } as SaltOptions, userKey, '#');
    expect(compile).toThrow(MetadataError);
    expect(compile).toThrow(message);
  });

  it('rejects previous beside since', () => {
    const key = keyComponents('userId', 'ts:timestamp');
    const options = { buckets: 16, previous: { buckets: 4 }, since: { component: 'ts', from: new Date(0) } };
    expect(() => compileSalt('Post', options as SaltOptions, key, '#')).toThrow(/remove since, or remove previous/);
  });
});

describe('the two layouts of a re-salted key', () => {
  const schema = compileEntity(Resalted);
  const old = previousLayout(schema);
  const values = { userId: 'u7', seq: 42 };

  it('encodes the previous layout through the previous view, writes through the declared one', () => {
    expect(old).toBeDefined();
    const current = encodeRowKey(schema, values).text;
    expect(current).toBe(`${String(md5Bucket('u7#042', 16)).padStart(2, '0')}#u7#042`);
    expect(encodeRowKey(old!, values).text).toMatch(/^[0-3]-u7#042$/);
  });

  it('tells the layouts apart and decodes keys of both', () => {
    const current = encodeRowKey(schema, values).text;
    const previous = encodeRowKey(old!, values).text;
    expect(layoutOfKey(schema, current)).toBe('current');
    expect(layoutOfKey(schema, previous)).toBe('previous');
    expect(layoutOfKey(schema, 'u7#042')).toBeUndefined();
    const wrongBucket = `${String((md5Bucket('u7#042', 16) + 1) % 16).padStart(2, '0')}#u7#042`;
    expect(layoutOfKey(schema, wrongBucket)).toBeUndefined();
    expect(decodeRowKey(schema, Buffer.from(current))).toEqual(values);
    expect(decodeRowKey(schema, Buffer.from(previous))).toEqual(values);
  });

  it('reads an unsalted previous layout, a key valid in both counting as the declared one', () => {
    const first = compileEntity(FirstSalted);
    const key = encodeRowKey(first, values).text;
    expect(layoutOfKey(first, 'u7#042')).toBe('previous');
    expect(layoutOfKey(first, key)).toBe('current');
    expect(decodeRowKey(first, Buffer.from('u7#042'))).toEqual(values);
  });

  it("plans order: 'none' as 'key', since only a merge in key order drops a row's second copy", () => {
    expect(planScan(schema, { order: 'none' }).order).toBe('key');
    expect(planScan(schema, { order: 'key-desc' }).order).toBe('key-desc');
  });

  it('plans every bucket of both layouts, or one of each when the salted key parts are fixed', () => {
    const all = planScan(schema, {});
    expect(all.sources.filter((s) => s.layout === 'salted')).toHaveLength(16);
    expect(all.sources.filter((s) => s.layout === 'previous').map((s) => s.segment)).toEqual(['0-', '1-', '2-', '3-']);
    const one = planScan(schema, { where: values });
    expect(one.sources.map((s) => [s.layout, s.segment])).toEqual([
      ['salted', encodeRowKey(schema, values).text.slice(0, 3)],
      ['previous', encodeRowKey(old!, values).text.slice(0, 2)],
    ]);
  });
});
