import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, EntityNotFoundError, type Repository } from '../../../src/index.js';
import {
  closeMapper,
  makeEntities,
  openMapper,
  rawRow,
  rawTable,
  recordingDriver,
  type DriverRecord,
} from '../../fixtures/entities.js';

const E = makeEntities('find');
type Reading = InstanceType<typeof E.Reading>;

let mapper: BigtableMapper;
let record: DriverRecord;
let readings: Repository<Reading>;

beforeAll(async () => {
  const recorded = recordingDriver(openMapper([]).driver);
  record = recorded.record;
  mapper = new BigtableMapper({ driver: recorded.driver, entities: [E.Reading] });
  await mapper.sync();
  readings = mapper.getRepository(E.Reading);
});

afterAll(() => closeMapper(mapper, [E.tables.readings]));

const TS = new Date('2024-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(TS.getTime() + ms);

/** Families and qualifiers present in the rows the server returned since `from`. */
function columnsReturned(from: number): string[] {
  const seen = new Set<string>();
  for (const row of record.rowsRead.slice(from)) {
    for (const [family, qualifiers] of Object.entries(row.cells))
      for (const q of Object.keys(qualifiers)) seen.add(`${family}:${q}`);
  }
  return [...seen].sort();
}

describe('findOne with select', () => {
  beforeAll(async () => {
    await readings.save(
      Object.assign(new E.Reading(), {
        sensorId: 'sel',
        ts: TS,
        temperature: [{ value: 20.5, timestamp: at(1) }],
        humidity: 0.4,
        location: 'roof',
        tags: ['x', 'y'],
      }),
    );
  });

  it('without select reads every column', async () => {
    const found = await readings.findOne({ sensorId: 'sel', ts: TS });
    expect(found).toMatchObject({ sensorId: 'sel', humidity: 0.4, location: 'roof', tags: ['x', 'y'] });
    expect(found!.ts.getTime()).toBe(TS.getTime());
    expect(found!.temperature).toEqual([{ value: 20.5, timestamp: at(1) }]);
  });

  it('returns only the selected column (others undefined, key parts decoded) and fetches only it', async () => {
    const from = record.rowsRead.length;
    const found = await readings.findOne({ sensorId: 'sel', ts: TS }, { select: ['humidity'] });
    expect(found).toBeInstanceOf(E.Reading);
    expect(found!.sensorId).toBe('sel');
    expect(found!.ts.getTime()).toBe(TS.getTime());
    expect(found!.humidity).toBe(0.4);
    expect(found!.temperature).toBeUndefined();
    expect(found!.location).toBeUndefined();
    expect(found!.tags).toBeUndefined();
    expect(columnsReturned(from)).toEqual(['m:humidity']);
  });

  it('selects a whole family worth of columns across families', async () => {
    const from = record.rowsRead.length;
    const found = await readings.findOne({ sensorId: 'sel', ts: TS }, { select: ['location', 'tags', 'temperature'] });
    expect(found!.location).toBe('roof');
    expect(found!.tags).toEqual(['x', 'y']);
    expect(found!.temperature).toEqual([{ value: 20.5, timestamp: at(1) }]);
    expect(found!.humidity).toBeUndefined();
    expect(columnsReturned(from)).toEqual(['m:temperature', 'meta:location', 'meta:tags']);
  });

  it('select of only key parts reads the row without any column', async () => {
    const found = await readings.findOne({ sensorId: 'sel', ts: TS }, { select: ['sensorId'] });
    expect(found).toBeDefined();
    expect(found!.sensorId).toBe('sel');
    expect(found!.humidity).toBeUndefined();
    expect(found!.location).toBeUndefined();
  });
});

describe('select never hides a row', () => {
  const key = { sensorId: 'sparse', ts: TS };

  beforeAll(async () => {
    await readings.save(Object.assign(new E.Reading(), { ...key, location: 'cellar' }));
  });

  it('findOne and findMany return an existing row that has none of the selected columns', async () => {
    const found = await readings.findOne(key, { select: ['humidity'] });
    expect(found).toBeInstanceOf(E.Reading);
    expect(found!.sensorId).toBe('sparse');
    expect(found!.humidity).toBeUndefined();
    expect(found!.location).toBeUndefined();
    const many = await readings.findMany([key, { sensorId: 'absent', ts: TS }], {
      select: ['humidity', 'temperature'],
    });
    expect(many.map((r) => r?.sensorId)).toEqual(['sparse', undefined]);
  });

  it('scans and pages with select keep rows without the selected columns', async () => {
    const scanned: Reading[] = [];
    for await (const r of readings.iterate({ where: { sensorId: 'sparse' }, select: ['humidity'] })) scanned.push(r);
    expect(scanned.map((r) => [r.sensorId, r.humidity, r.location])).toEqual([['sparse', undefined, undefined]]);
    const page = await readings.page({ where: { sensorId: 'sparse' }, select: ['tags'], limit: 5 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.tags).toBeUndefined();
  });

  it('rows that hold a selected column still read only that column', async () => {
    const from = record.rowsRead.length;
    const found = await readings.findOne({ sensorId: 'sel', ts: TS }, { select: ['humidity'] });
    expect(found!.humidity).toBe(0.4);
    expect(columnsReturned(from)).toEqual(['m:humidity']);
  });
});

describe('versions', () => {
  const key = { sensorId: 'ver', ts: TS };
  // Five versions, written out of order, with explicit timestamps.
  const written = [3, 1, 5, 2, 4].map((n) => ({ value: n * 1.5, timestamp: at(n * 1000) }));

  beforeAll(async () => {
    await readings.save(Object.assign(new E.Reading(), { ...key, temperature: written }));
  });

  it('stores every version (more than the declared 3)', async () => {
    const raw = await rawRow(
      mapper,
      E.tables.readings,
      readings.compileSave(Object.assign(new E.Reading(), { ...key, humidity: 1 })).rowKey,
    );
    const temps = raw!.cells.filter((c) => c.qualifier === 'temperature');
    expect(temps.map((c) => c.timestampMicros)).toEqual([5, 4, 3, 2, 1].map((n) => at(n * 1000).getTime() * 1000));
  });

  it('hydrates { value, timestamp }[] newest first, capped at the declared count', async () => {
    const found = await readings.findOne(key);
    expect(found!.temperature).toEqual([
      { value: 7.5, timestamp: at(5000) },
      { value: 6, timestamp: at(4000) },
      { value: 4.5, timestamp: at(3000) },
    ]);
    expect(found!.temperature![0]!.timestamp).toBeInstanceOf(Date);
  });

  it('versions: 2 caps lower; versions above the declared count stay capped', async () => {
    expect((await readings.findOne(key, { versions: 2 }))!.temperature).toEqual([
      { value: 7.5, timestamp: at(5000) },
      { value: 6, timestamp: at(4000) },
    ]);
    expect((await readings.findOne(key, { versions: 1 }))!.temperature).toEqual([{ value: 7.5, timestamp: at(5000) }]);
    expect((await readings.findOne(key, { versions: 10 }))!.temperature).toHaveLength(3);
  });

  it('the server sends no more versions than asked', async () => {
    const from = record.rowsRead.length;
    await readings.findOne(key, { versions: 2 });
    const cells = record.rowsRead.slice(from).flatMap((r) => r.cells['m']?.['temperature'] ?? []);
    expect(cells).toHaveLength(2);
  });

  it('a plain column returns the latest value only', async () => {
    await readings.save(
      Object.assign(new E.Reading(), {
        sensorId: 'ver2',
        ts: TS,
        temperature: [{ value: 1, timestamp: at(1) }],
        humidity: 0.1,
      }),
    );
    await readings.update({ sensorId: 'ver2', ts: TS }, { humidity: 0.9 });
    expect((await readings.findOne({ sensorId: 'ver2', ts: TS }))!.humidity).toBe(0.9);
  });
});

describe('GC maxAge is enforced on read', () => {
  it('never returns cells older than maxAge, although the emulator still holds them', async () => {
    // The emulator collects expired cells on its own schedule: an attempt counts only when the old
    // cells are still there after findOne() has read the row, so the filter, not the emulator, hid them.
    for (let attempt = 1; ; attempt++) {
      const now = Date.now();
      const key = { sensorId: `gc-${attempt}`, ts: TS };
      const minutesAgo = (m: number) => new Date(now - m * 60_000);
      await readings.save(
        Object.assign(new E.Reading(), {
          ...key,
          humidity: 0.5,
          events: [
            { value: 'three hours ago', timestamp: minutesAgo(180) },
            { value: 'two hours ago', timestamp: minutesAgo(120) },
            { value: 'half an hour ago', timestamp: minutesAgo(30) },
            { value: 'a minute ago', timestamp: minutesAgo(1) },
          ],
        }),
      );
      const rowKey = readings.compileSave(Object.assign(new E.Reading(), { ...key, humidity: 1 })).rowKey;
      // A plain column whose only cell is two hours old, written by another program.
      await rawTable(mapper, E.tables.readings).insert([
        { key: rowKey, data: { recent: { lastEvent: { value: Buffer.from('stale'), timestamp: minutesAgo(120) } } } },
      ]);

      const found = await readings.findOne(key);
      const raw = await rawRow(mapper, E.tables.readings, rowKey);
      const held = raw!.cells.filter((c) => c.family === 'recent').map((c) => c.value.toString('utf8'));
      if (held.length < 5 && attempt < 5) continue;
      expect(held).toEqual(['a minute ago', 'half an hour ago', 'two hours ago', 'three hours ago', 'stale']);
      expect(found!.events).toEqual([
        { value: 'a minute ago', timestamp: minutesAgo(1) },
        { value: 'half an hour ago', timestamp: minutesAgo(30) },
      ]);
      expect(found!.lastEvent).toBeUndefined();
      expect(found!.humidity).toBe(0.5);
      return;
    }
  });
});

describe('findOneOrFail and findMany', () => {
  const keys = ['m1', 'm2', 'm3'].map((sensorId, i) => ({ sensorId, ts: at(i) }));

  beforeAll(async () => {
    await readings.saveMany(
      keys.map((k, i) => Object.assign(new E.Reading(), { ...k, humidity: i / 10, location: `loc-${k.sensorId}` })),
    );
  });

  it('findOneOrFail returns the row or throws EntityNotFoundError', async () => {
    expect((await readings.findOneOrFail(keys[1]!)).location).toBe('loc-m2');
    await expect(readings.findOneOrFail({ sensorId: 'nope', ts: TS })).rejects.toBeInstanceOf(EntityNotFoundError);
  });

  it('findMany answers in input order, undefined for missing rows, duplicates repeated', async () => {
    const query = [
      keys[2]!,
      { sensorId: 'missing', ts: TS },
      keys[0]!,
      keys[2]!,
      keys[1]!,
      { sensorId: 'm1', ts: at(99) },
    ];
    const found = await readings.findMany(query);
    expect(found.map((f) => f?.location)).toEqual(['loc-m3', undefined, 'loc-m1', 'loc-m3', 'loc-m2', undefined]);
    expect(found.map((f) => f?.ts.getTime())).toEqual([
      at(2).getTime(),
      undefined,
      at(0).getTime(),
      at(2).getTime(),
      at(1).getTime(),
      undefined,
    ]);
    expect(found[0]).toBeInstanceOf(E.Reading);
    expect(await readings.findMany([])).toEqual([]);
  });

  it('findMany with select', async () => {
    const found = await readings.findMany(keys, { select: ['location'] });
    expect(found.map((f) => [f?.location, f?.humidity])).toEqual([
      ['loc-m1', undefined],
      ['loc-m2', undefined],
      ['loc-m3', undefined],
    ]);
  });
});
