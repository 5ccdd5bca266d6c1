import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Column,
  Entity,
  Family,
  KeyPart,
  Salt,
  range,
  type BigtableMapper,
  type Repository,
  type ScanQuery,
} from '../../../src/index.js';
import { encodeRowKey } from '../../../src/tools.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { closeMapper, openMapper, plain } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';
import { rowsOf } from '../../support/rows-of.js';

const TABLES = {
  readings: uniqueTableId('oc-readings'),
  events: uniqueTableId('oc-events'),
  feed: uniqueTableId('oc-feed'),
};

@Entity({ table: TABLES.readings, keyFormat: 'ordered-code' })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
  @KeyPart(2, { type: 'int' }) seq!: number;
  @Column({ family: 'm', type: 'float' }) value!: number;
}

@Entity({ table: TABLES.events, keyFormat: 'ordered-code' })
@Salt({ buckets: 4, on: ['userId'] })
@Family('e')
class UserEvent {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint' }) seq!: number;
  @Column({ family: 'e', type: 'string' }) payload!: string;
}

@Entity({ table: TABLES.feed, keyFormat: 'ordered-code' })
@Family('f')
class FeedItem {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'timestamp', descending: true }) at!: Date;
  @Column({ family: 'f', type: 'string' }) text!: string;
}

let mapper: BigtableMapper;
let readings: Repository<Reading>;
let events: Repository<UserEvent>;
let feed: Repository<FeedItem>;

async function all<T extends object>(
  repo: Repository<T>,
  query: ScanQuery<T> = {},
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const item of repo.iterate(query)) out.push(plain(item));
  return out;
}

/** Sensor ids whose keys share bytes: a prefix, a null byte, a byte sorting above every other one. */
const SENSORS = ['s1', 's10', 's1\u0000', 's1\u0000x', 's2', 'ÿ'];
const BASE = Date.UTC(2024, 0, 1);
const reading = (sensorId: string, i: number): Reading =>
  Object.assign(new Reading(), { sensorId, at: new Date(BASE + (i - 3) * 60_000), seq: i - 2, value: i / 2 });
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];

beforeAll(async () => {
  mapper = openMapper([Reading, UserEvent, FeedItem]);
  await mapper.sync();
  readings = mapper.getRepository(Reading);
  events = mapper.getRepository(UserEvent);
  feed = mapper.getRepository(FeedItem);
  await readings.saveMany(SENSORS.flatMap((s) => Array.from({ length: 6 }, (_, i) => reading(s, i))));
  await events.saveMany(
    USERS.flatMap((userId) =>
      Array.from({ length: 12 }, (_, seq) =>
        Object.assign(new UserEvent(), { userId, seq, payload: `${userId}-${seq}` }),
      ),
    ),
  );
  await feed.saveMany(
    Array.from({ length: 5 }, (_, i) =>
      Object.assign(new FeedItem(), { userId: 'u1', at: new Date(BASE + i), text: `t${i}` }),
    ),
  );
});

afterAll(() => closeMapper(mapper, Object.values(TABLES)));

describe("keyFormat 'ordered-code' on the emulator", () => {
  it('sync created the tables (the emulator accepts the row key schema) with their families', async () => {
    expect(await mapper.driver.getFamilies({ table: TABLES.readings })).toEqual([{ name: 'm', gc: undefined }]);
    expect(await mapper.driver.getFamilies({ table: TABLES.events })).toEqual([{ name: 'e', gc: undefined }]);
  });

  it('stores the struct bytes and reads a row back by key', async () => {
    const one = reading('s1', 3);
    const key = encodeRowKey(compileEntity(Reading), { ...one }).key;
    // "s1", terminator; Int64 of 1704067200000000 µs (8 bytes: 0xff header, 0x060dd710212000), its 00 escaped
    // to 00 ff, terminator; Int64 of 1, the last field, so no terminator
    expect(key.toString('hex')).toBe('73310001' + 'ff060dd7102120' + '00ff' + '0001' + '81');
    const rows = [];
    for await (const row of rowsOf(mapper.driver.readRows({ table: TABLES.readings, keys: [key] }))) rows.push(row);
    expect(rows.map((r) => r.key.toString('hex'))).toEqual([key.toString('hex')]);
    expect(plain((await readings.findOne({ sensorId: 's1\u0000', at: one.at, seq: 1 })) as Reading)).toEqual(
      plain(reading('s1\u0000', 3)),
    );
    expect(await readings.findOne({ sensorId: 's1', at: one.at, seq: 2 })).toBeUndefined();
    const found = await readings.findMany([
      { sensorId: 'ÿ', at: one.at, seq: 1 },
      { sensorId: 'nobody', at: one.at, seq: 1 },
    ]);
    expect(found.map((r) => r && plain(r))).toEqual([plain(reading('ÿ', 3)), undefined]);
  });

  it('a prefix scan returns exactly the rows of that sensor, in key order', async () => {
    for (const sensorId of SENSORS) {
      const rows = await all(readings, { where: { sensorId } });
      expect(rows).toEqual(Array.from({ length: 6 }, (_, i) => plain(reading(sensorId, i))));
    }
    const everything = await all(readings);
    const expected = [...SENSORS]
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
      .flatMap((s) => Array.from({ length: 6 }, (_, i) => plain(reading(s, i))));
    expect(everything).toEqual(expected);
  });

  it('a range scan on the next key part, dates before 1970 and negative numbers included', async () => {
    const rows = await all(readings, {
      where: { sensorId: 's1', at: range({ gt: new Date(BASE - 2 * 60_000), lte: new Date(BASE + 60_000) }) },
    });
    expect(rows).toEqual([2, 3, 4].map((i) => plain(reading('s1', i))));
    const seqs = await all(readings, { where: { sensorId: 's10', at: reading('s10', 0).at, seq: range({ gte: -2 }) } });
    expect(seqs).toEqual([plain(reading('s10', 0))]);
  });

  it('merges salted buckets in key order, reads one bucket for a fixed user, and ranges inside it', async () => {
    expect(events.planScan().sources).toHaveLength(4);
    expect(events.planScan({ where: { userId: 'carol' } }).sources).toHaveLength(1);
    const everything = await all(events);
    expect(everything.map((e) => `${String(e['userId'])}/${String(e['seq'])}`)).toEqual(
      USERS.flatMap((u) => Array.from({ length: 12 }, (_, seq) => `${u}/${seq}`)),
    );
    const carol = await all(events, { where: { userId: 'carol', seq: range({ gte: 3, lt: 6 }) } });
    expect(carol.map((e) => e['payload'])).toEqual(['carol-3', 'carol-4', 'carol-5']);
    const first = await events.page({ limit: 7 });
    const next = await events.page({ limit: 7, cursor: first.cursor });
    expect([...first.items, ...next.items].map((e) => e.payload)).toEqual(
      everything.slice(0, 14).map((e) => e['payload']),
    );
  });

  it('a descending timestamp scans newest first', async () => {
    const rows = await all(feed, { where: { userId: 'u1' } });
    expect(rows.map((r) => r['text'])).toEqual(['t4', 't3', 't2', 't1', 't0']);
    const middle = await all(feed, {
      where: { userId: 'u1', at: range({ gte: new Date(BASE + 1), lt: new Date(BASE + 4) }) },
    });
    expect(middle.map((r) => r['text'])).toEqual(['t3', 't2', 't1']);
  });
});
