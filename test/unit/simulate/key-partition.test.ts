import { describe, expect, it } from 'vitest';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { keyPrefix, partitionKeys } from '../../../src/simulate/key-partition.js';
import { SaltedUserEvents, UserEvents } from './seed-entities.js';

describe('key partition', () => {
  it('groups a key by its salt segment and first key part', () => {
    expect(keyPrefix(compileEntity(SaltedUserEvents), '03#u-1#2026-01-01T00:00:00.000Z')).toEqual({
      prefix: '03#u-1',
      bucket: 3,
    });
    expect(keyPrefix(compileEntity(UserEvents), 'u-1#2026-01-01T00:00:00.000Z')).toEqual({ prefix: 'u-1' });
    expect(keyPrefix(undefined, 'raw-key')).toEqual({ prefix: 'raw-key' });
  });

  it('keeps every row of one entity in one range, whatever its share of the keys', () => {
    const keys = [
      ...Array.from({ length: 900 }, (_, i) => `u-5#${i}`),
      ...Array.from({ length: 100 }, (_, i) => `u-${i}#0`),
    ];
    const partition = partitionKeys(keys, compileEntity(UserEvents), 10);
    const ranges = new Set(Array.from({ length: 900 }, (_, i) => partition.indexOf(Buffer.from(`u-5#${i}`))));
    expect(ranges.size).toBe(1);
    expect(partition.ranges.length).toBe(10);
  });

  it('starts a range at every salt bucket and labels it with the bucket', () => {
    const keys = Array.from({ length: 8 * 50 }, (_, i) => `0${i % 8}#u-${String(i).padStart(3, '0')}#x`);
    const partition = partitionKeys(keys, compileEntity(SaltedUserEvents), 32);
    const firsts = partition.ranges.filter((r, i) => i === 0 || partition.ranges[i - 1]?.bucket !== r.bucket);
    expect(firsts.map((r) => r.bucket)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(partition.indexOf(Buffer.from('05#u-005#z'))).toBe(partition.ranges.findIndex((r) => r.bucket === 5));
    expect(partition.indexOf(Buffer.from(''))).toBe(0);
  });

  it('is one range over the whole table when there are no keys', () => {
    expect(partitionKeys([], undefined, 64).ranges).toEqual([{ label: '(all keys)', start: '' }]);
  });
});
