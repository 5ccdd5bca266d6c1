import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt, range } from '../../../src/index.js';
import { decodeKeyPrefix } from '../../../src/key/key-prefix.js';
import { decodeRowKey, encodeRowKey } from '../../../src/key/physical-key.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { planScan } from '../../../src/scan/plan-scan.js';

@Entity({ table: 'prefix-events' })
@KeyPart(0, { literal: 'event' })
@Salt({ buckets: 10, hash: 'md5' })
@Family('d', { gc: { maxVersions: 1 } })
class Event {
  @KeyPart(1, { type: 'string', maxLength: 64 }) source!: string;
  @KeyPart(2, { type: 'timestamp' }) timestamp!: Date;
  @Column({ family: 'd', type: 'string' }) type?: string;
}

@Entity({ table: 'prefix-readings' })
@Family('d', { gc: { maxVersions: 1 } })
class Reading {
  @KeyPart(0, { type: 'string', maxLength: 64 }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
}

/** A signed Java salt with `-` separators and a forward-only cutoff, so bounds start with `-3-` or hold no salt. */
@Entity({ table: 'prefix-activity', separator: '-' })
@Salt({
  buckets: 4,
  on: ['userId', 'site'],
  hash: 'java-string-hashcode-signed',
  format: { width: 1, separator: '-' },
  since: { component: 'at', from: new Date('2026-01-01T00:00:00.000Z') },
})
@Family('a', { gc: { maxVersions: 1 } })
class Activity {
  @KeyPart(0, { type: 'string', maxLength: 64 }) userId!: string;
  @KeyPart(1, { type: 'string', maxLength: 64 }) site!: string;
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
}

@Entity({ table: 'prefix-grid' })
@KeyPart(0, { literal: 'grid' })
@Family('d', { gc: { maxVersions: 1 } })
class Cell {
  @KeyPart(1, { type: 'uint', width: 4 }) x!: number;
  @KeyPart(2, { type: 'uint', width: 4 }) y!: number;
}

@Entity({ table: 'prefix-ordered', keyFormat: 'ordered-code' })
@Salt({ buckets: 4 })
@Family('d', { gc: { maxVersions: 1 } })
class OrderedReading {
  @KeyPart(0, { type: 'string', maxLength: 64 }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp', descending: true }) at!: Date;
  @KeyPart(2, { type: 'uint' }) seq!: number;
}

@Entity({ table: 'prefix-resalted' })
@Salt({ buckets: 8, previous: { buckets: 2 } })
@Family('d', { gc: { maxVersions: 1 } })
class Note {
  @KeyPart(0, { type: 'string', maxLength: 32 }) author!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
}

const t1 = new Date('2026-02-01T00:00:00.000Z');
const t2 = new Date('2026-03-01T00:00:00.000Z');
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('decodeKeyPrefix', () => {
  const event = compileEntity(Event);

  it('reads a start bound that stops after some key parts: its salt bucket and the whole parts', () => {
    expect(decodeKeyPrefix(event, bytes('03#event#web#'))).toEqual({
      bucket: 3,
      layout: 'salted',
      parts: 2,
      of: 3,
      values: { source: 'web' },
      after: false,
    });
    expect(decodeKeyPrefix(event, bytes('03#'))).toMatchObject({ bucket: 3, parts: 0, values: {}, after: false });
  });

  it('reads an end bound one byte past a prefix (the prefix successor) as the end of the keys that start with it', () => {
    expect(decodeKeyPrefix(event, bytes('03#event#web$'))).toEqual({
      bucket: 3,
      layout: 'salted',
      parts: 2,
      of: 3,
      values: { source: 'web' },
      after: true,
    });
    expect(decodeKeyPrefix(event, bytes('03#event$'))).toMatchObject({ bucket: 3, parts: 1, after: true });
    const reading = compileEntity(Reading);
    expect(decodeKeyPrefix(reading, bytes('s1$'))).toMatchObject({
      bucket: undefined,
      layout: 'unsalted',
      parts: 1,
      of: 2,
      values: { sensorId: 's1' },
      after: true,
    });
  });

  it('reads a range bound that stops inside a key part as the whole parts and the start of the next one', () => {
    const reading = compileEntity(Reading);
    expect(decodeKeyPrefix(reading, bytes('a'))).toEqual({
      bucket: undefined,
      layout: 'unsalted',
      parts: 0,
      of: 2,
      values: {},
      after: false,
      partial: { part: 'sensorId', text: 'a', value: 'a' },
    });
    const grid = compileEntity(Cell);
    expect(decodeKeyPrefix(grid, bytes('grid#0005'))).toMatchObject({
      parts: 1,
      values: {},
      partial: { part: 'x', text: '0005', value: 5 },
    });
  });

  it('reads negative salt buckets, salt separators other than the key separator, and the unsalted layout', () => {
    const activity = compileEntity(Activity);
    expect(decodeKeyPrefix(activity, bytes('-3-u1-'))).toMatchObject({ bucket: -3, layout: 'salted', parts: 1 });
    expect(decodeKeyPrefix(activity, bytes('-3.'))).toMatchObject({ bucket: -3, parts: 0, after: true });
    expect(decodeKeyPrefix(activity, bytes('u1-web.'))).toMatchObject({
      bucket: undefined,
      layout: 'unsalted',
      parts: 2,
      values: { userId: 'u1', site: 'web' },
      after: true,
    });
  });

  it('reads the bounds of both layouts of an entity being re-salted', () => {
    const note = compileEntity(Note);
    expect(decodeKeyPrefix(note, bytes('07#ann#'))).toMatchObject({ bucket: 7, layout: 'salted', parts: 1 });
  });

  it('reads ordered-code bounds: whole fields, and the byte after a terminated field', () => {
    const ordered = compileEntity(OrderedReading);
    const [source] = planScan(ordered, { where: { sensorId: 's1' } }).sources;
    const start = decodeKeyPrefix(ordered, source!.range.start.key);
    expect(start).toMatchObject({ parts: 1, of: 3, values: { sensorId: 's1' }, after: false });
    expect(start?.bucket).toEqual(expect.any(Number));
    expect(decodeKeyPrefix(ordered, source!.range.end!.key)).toMatchObject({
      parts: 1,
      values: { sensorId: 's1' },
      after: true,
    });
  });

  it('is undefined for whole keys, keys of another layout and text that is no prefix of the key', () => {
    const reading = compileEntity(Reading);
    expect(decodeKeyPrefix(reading, encodeRowKey(reading, { sensorId: 's1', ts: t1 }).key)).toBeUndefined();
    expect(decodeKeyPrefix(reading, bytes('s1#not-a-time'))).toBeUndefined();
    expect(decodeKeyPrefix(event, bytes('99#event#'))).toBeUndefined();
    expect(decodeKeyPrefix(event, bytes('03#other#'))).toBeUndefined();
    expect(decodeKeyPrefix(event, bytes('03#event#web#2026-01-01T00:00:00.000Z#'))).toBeUndefined();
  });

  it('reads every bound a scan plan prints, as a whole key or a key prefix', () => {
    const cases: [Function, Record<string, unknown>][] = [
      [Event, {}],
      [Event, { source: 'web' }],
      [Event, { source: 'web', timestamp: range({ gte: t1, lt: t2 }) }],
      [Event, { source: range({ gt: 'a', lte: 'm' }) }],
      [Reading, {}],
      [Reading, { sensorId: 's1' }],
      [Reading, { sensorId: range({ gte: 'a', lt: 'm' }) }],
      [Reading, { sensorId: range({ gt: 'a', lte: 'm' }) }],
      [Reading, { sensorId: 's1', ts: range({ gt: t1, lte: t2 }) }],
      [Activity, { userId: 'u1' }],
      [Activity, { userId: 'u1', site: 'web' }],
      [Activity, { userId: 'u1', site: 'web', at: range({ gte: t1 }) }],
      [Cell, { x: 5 }],
      [Cell, { x: range({ gt: 5, lte: 9 }) }],
      [OrderedReading, {}],
      [OrderedReading, { sensorId: 's1' }],
      [OrderedReading, { sensorId: 's1', at: range({ gt: t1, lte: t2 }) }],
      [OrderedReading, { sensorId: 's1', at: t1 }],
      [Note, { author: 'ann' }],
    ];
    for (const [entity, where] of cases) {
      const schema = compileEntity(entity as new () => object);
      for (const source of planScan(schema, { where } as never).sources) {
        for (const bound of [source.range.start, source.range.end]) {
          if (bound === undefined || bound.key.length === 0) continue;
          const label = `${schema.name} ${JSON.stringify(where)} ${bound.key.toString('hex')}`;
          let whole = true;
          try {
            decodeRowKey(schema, bound.key);
          } catch {
            whole = false;
          }
          if (!whole) expect(decodeKeyPrefix(schema, bound.key), label).toBeDefined();
        }
      }
    }
  });
});
