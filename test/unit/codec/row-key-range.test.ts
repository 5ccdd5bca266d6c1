import { describe, expect, it } from 'vitest';
import { logicalKeyRange } from '../../../src/key/key-ranges.js';
import type { LogicalKeyRange } from '../../../src/model/key-range.js';
import { ValidationError } from '../../../src/errors/errors.js';
import { keySchema } from '../../support/key-schema.js';

const reading = keySchema('Reading', [
  { property: 'sensorId', options: { type: 'string' } },
  { property: 'ts', options: { type: 'timestamp' } },
]);
const reverse = keySchema('Reading', [
  { property: 'sensorId', options: { type: 'string' } },
  { property: 'ts', options: { type: 'timestamp', format: 'epoch-s', descending: true } },
]);
const grid = keySchema('Cell', [
  { literal: 'grid' },
  { property: 'x', options: { type: 'uint', width: 4 } },
  { property: 'y', options: { type: 'uint', width: 4 } },
]);
const t1 = new Date('2023-05-01T00:00:00.000Z');
const t2 = new Date('2023-05-02T00:00:00.000Z');

function text(range: LogicalKeyRange): [string, boolean, string | undefined, boolean | undefined] {
  return [
    range.start.key.toString('utf8'),
    range.start.inclusive,
    range.end?.key.toString('utf8'),
    range.end?.inclusive,
  ];
}

describe('logicalKeyRange', () => {
  it('covers the whole table when nothing is fixed', () => {
    expect(text(logicalKeyRange(reading, {}))).toEqual(['', true, undefined, undefined]);
  });

  it('covers a prefix as [P, prefixEnd(P))', () => {
    expect(text(logicalKeyRange(reading, { sensorId: 's1' }))).toEqual(['s1#', true, 's1$', false]);
    expect(text(logicalKeyRange(grid, {}))).toEqual(['grid#', true, 'grid$', false]);
  });

  it('is a single key when every part is fixed', () => {
    expect(text(logicalKeyRange(reading, { sensorId: 's1', ts: t1 }))).toEqual([
      's1#2023-05-01T00:00:00.000Z',
      true,
      's1#2023-05-01T00:00:00.000Z',
      true,
    ]);
  });

  it('bounds the last component', () => {
    expect(text(logicalKeyRange(reading, { sensorId: 's1' }, { property: 'ts', gte: t1, lt: t2 }))).toEqual([
      's1#2023-05-01T00:00:00.000Z',
      true,
      's1#2023-05-02T00:00:00.000Z',
      false,
    ]);
    expect(text(logicalKeyRange(reading, { sensorId: 's1' }, { property: 'ts', gt: t1, lte: t2 }))).toEqual([
      's1#2023-05-01T00:00:00.000Z',
      false,
      's1#2023-05-02T00:00:00.000Z',
      true,
    ]);
  });

  it('steps past every row of the bound value on a component that is not last', () => {
    expect(text(logicalKeyRange(grid, {}, { property: 'x', gt: 5, lte: 9 }))).toEqual([
      'grid#0005$',
      true,
      'grid#0009$',
      false,
    ]);
    expect(text(logicalKeyRange(grid, {}, { property: 'x', gte: 5, lt: 9 }))).toEqual([
      'grid#0005',
      true,
      'grid#0009',
      false,
    ]);
  });

  it('keeps the other end of a half-open range at the prefix', () => {
    expect(text(logicalKeyRange(grid, { x: 1 }, { property: 'y', gte: 7 }))).toEqual([
      'grid#0001#0007',
      true,
      'grid#0001$',
      false,
    ]);
    expect(text(logicalKeyRange(reading, {}, { property: 'sensorId', lt: 'b' }))).toEqual(['', true, 'b', false]);
  });

  it('flips bounds on descending components', () => {
    const jun = new Date(1682942400 * 1000);
    expect(text(logicalKeyRange(reverse, { sensorId: 's1' }, { property: 'ts', gte: jun }))).toEqual([
      's1#',
      true,
      's1#8317057599',
      true,
    ]);
    expect(text(logicalKeyRange(reverse, { sensorId: 's1' }, { property: 'ts', lt: jun }))).toEqual([
      's1#8317057599',
      false,
      's1$',
      false,
    ]);
  });

  it('returns Buffers', () => {
    const range = logicalKeyRange(reading, { sensorId: 'é' });
    expect(Buffer.isBuffer(range.start.key)).toBe(true);
    expect(range.end?.key.toString('hex')).toBe('c3a924');
  });

  it.each([
    [
      'a range not on the next key part',
      grid,
      {},
      { property: 'y', gte: 1 },
      /range must be on "x", the key part right after the fixed ones, not on "y"/,
    ],
    ['a range on a fixed key part', grid, { x: 1 }, { property: 'x', gte: 1 }, /range must be on "y".*not on "x"/],
    ['a range on an unknown property', grid, {}, { property: 'z', gte: 1 }, /not on "z"/],
    [
      'gt with gte',
      grid,
      {},
      { property: 'x', gt: 1, gte: 1 },
      /gives both gt and gte.*Fix: give only one lower bound/,
    ],
    ['lt with lte', grid, {}, { property: 'x', lt: 1, lte: 1 }, /gives both lt and lte/],
    [
      'a range when every part is fixed',
      reading,
      { sensorId: 's', ts: t1 },
      { property: 'ts', gte: t1 },
      /every key part is already fixed/,
    ],
    ['a gap in the fixed parts', grid, { y: 1 }, undefined, /gives "y" but not "x"/],
  ] as const)('rejects %s with ValidationError', (_name, schema, fixed, range, message) => {
    expect(() => logicalKeyRange(schema, fixed, range)).toThrow(ValidationError);
    expect(() => logicalKeyRange(schema, fixed, range)).toThrow(message);
  });
});
