import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  range,
  type BigtableMapper,
  type RangeCondition,
  type Repository,
  type ScanQuery,
} from '../../../src/index.js';
import { closeMapper, makeEntities, openMapper } from '../../fixtures/entities.js';

const E = makeEntities('scan');
type Reading = InstanceType<typeof E.Reading>;
type Measurement = InstanceType<typeof E.Measurement>;

let mapper: BigtableMapper;
let readings: Repository<Reading>;
let measurements: Repository<Measurement>;

const BASE = Date.UTC(2024, 4, 1, 12, 0, 0);
const t = (k: number) => new Date(BASE + k * 60_000);
/** Ids chosen to collide with each other if escaping or prefix termination were wrong. */
const SENSORS = ['a', 'ab', 'a#b', 'a%', 'a%23b', 'b'];
/** Their stored order: `a#`, `a%23b#`, `a%25#`, `a%2523b#`, `ab#`, `b#`. */
const SENSORS_IN_KEY_ORDER = ['a', 'a#b', 'a%', 'a%23b', 'ab', 'b'];
const HOSTS = ['h1', 'h2', 'h3', 'h10'];

function all<T extends object>(repo: Repository<T>, query: ScanQuery<T> = {}): Promise<T[]> {
  return lastValueFrom(repo.scan(query).pipe(toArray()));
}

beforeAll(async () => {
  mapper = openMapper([E.Reading, E.Measurement]);
  await mapper.sync();
  readings = mapper.getRepository(E.Reading);
  measurements = mapper.getRepository(E.Measurement);
  await readings.saveMany(
    SENSORS.flatMap((sensorId) =>
      Array.from({ length: 10 }, (_, k) =>
        Object.assign(new E.Reading(), { sensorId, ts: t(k), humidity: k, location: sensorId }),
      ),
    ),
  );
  await measurements.saveMany(
    HOSTS.flatMap((host) =>
      Array.from({ length: 20 }, (_, seq) => Object.assign(new E.Measurement(), { host, seq, value: seq * 10 })),
    ),
  );
});

afterAll(() => closeMapper(mapper, [E.tables.readings, E.tables.measurements]));

const summary = (rs: Reading[]) => rs.map((r) => `${r.sensorId}@${(r.ts.getTime() - BASE) / 60_000}`);

describe('prefix scans', () => {
  it('returns the rows of the leading component, newest first (descending epoch-ms key part)', async () => {
    const rows = await all(readings, { where: { sensorId: 'a' } });
    expect(summary(rows)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((k) => `a@${k}`));
    expect(rows[0]).toBeInstanceOf(E.Reading);
    expect(rows.map((r) => r.humidity)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it.each(SENSORS)(
    'sensorId %j never returns rows of another id that shares its prefix or contains the separator',
    async (sensorId) => {
      const rows = await all(readings, { where: { sensorId } });
      expect(rows).toHaveLength(10);
      expect(new Set(rows.map((r) => r.sensorId))).toEqual(new Set([sensorId]));
      expect(new Set(rows.map((r) => r.location))).toEqual(new Set([sensorId]));
    },
  );

  it('iterate() yields the same rows as scan()', async () => {
    const viaIterate: Reading[] = [];
    for await (const r of readings.iterate({ where: { sensorId: 'a#b' } })) viaIterate.push(r);
    expect(summary(viaIterate)).toEqual(summary(await all(readings, { where: { sensorId: 'a#b' } })));
  });

  it('a prefix with no rows is empty', async () => {
    expect(await all(readings, { where: { sensorId: 'a#' } })).toEqual([]);
    expect(await all(readings, { where: { sensorId: 'zzz' } })).toEqual([]);
  });
});

describe('ranges on the next key part', () => {
  const descendingCases: [string, RangeCondition<Date>, number[]][] = [
    ['gte/lt', { gte: t(3), lt: t(7) }, [6, 5, 4, 3]],
    ['gt/lte', { gt: t(3), lte: t(7) }, [7, 6, 5, 4]],
    ['gte only', { gte: t(8) }, [9, 8]],
    ['gt only', { gt: t(8) }, [9]],
    ['lt only', { lt: t(2) }, [1, 0]],
    ['lte only', { lte: t(1) }, [1, 0]],
    ['between two rows', { gt: t(4), lt: t(5) }, []],
    ['exact', { gte: t(4), lte: t(4) }, [4]],
    ['between minutes', { gte: new Date(BASE + 2.5 * 60_000), lte: new Date(BASE + 5.5 * 60_000) }, [5, 4, 3]],
  ];

  it.each(descendingCases)('descending ts, %s: logical bounds, newest first', async (_label, ts, expected) => {
    const rows = await all(readings, { where: { sensorId: 'a', ts: range(ts) } });
    expect(summary(rows)).toEqual(expected.map((k) => `a@${k}`));
  });

  it('the same range under "ab" returns only "ab" rows', async () => {
    const rows = await all(readings, { where: { sensorId: 'ab', ts: range({ gte: t(3), lt: t(7) }) } });
    expect(summary(rows)).toEqual([6, 5, 4, 3].map((k) => `ab@${k}`));
  });

  const ascendingCases: [string, RangeCondition<number>, number[]][] = [
    ['gt/lt', { gt: 5, lt: 9 }, [6, 7, 8]],
    ['gte/lte', { gte: 5, lte: 9 }, [5, 6, 7, 8, 9]],
    ['gte', { gte: 17 }, [17, 18, 19]],
    ['gt', { gt: 17 }, [18, 19]],
    ['lt', { lt: 2 }, [0, 1]],
    ['lte', { lte: 2 }, [0, 1, 2]],
  ];

  it.each(ascendingCases)('ascending uint seq, %s', async (_label, seq, expected) => {
    const rows = await all(measurements, { where: { host: 'h1', seq: range(seq) } });
    expect(rows.map((r) => `${r.host}:${r.seq}`)).toEqual(expected.map((s) => `h1:${s}`));
    expect(rows.map((r) => r.value)).toEqual(expected.map((s) => s * 10));
  });

  it('ranges on the first key part follow string order (h1 < h10 < h2)', async () => {
    const hostsOf = async (host: RangeCondition<string>) => [
      ...new Set((await all(measurements, { where: { host: range(host) } })).map((r) => r.host)),
    ];
    expect(await hostsOf({ gte: 'h1', lt: 'h2' })).toEqual(['h1', 'h10']);
    expect(await hostsOf({ gt: 'h1' })).toEqual(['h10', 'h2', 'h3']);
    expect(await hostsOf({ lte: 'h2' })).toEqual(['h1', 'h10', 'h2']);
    expect(await hostsOf({ lt: 'h10' })).toEqual(['h1']);
    expect((await all(measurements, { where: { host: range({ gte: 'h2', lte: 'h2' }) } })).map((r) => r.seq)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
  });
});

describe('whole-table scans', () => {
  it('returns every row in row-key order', async () => {
    const rows = await all(readings);
    expect(summary(rows)).toEqual(
      SENSORS_IN_KEY_ORDER.flatMap((s) => [9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((k) => `${s}@${k}`)),
    );
    const meas = await all(measurements);
    expect(meas).toHaveLength(80);
    expect(meas.map((m) => `${m.host}:${m.seq}`)).toEqual(
      ['h1', 'h10', 'h2', 'h3'].flatMap((h) => Array.from({ length: 20 }, (_, s) => `${h}:${s}`)),
    );
  });

  it('limit returns the first rows in key order', async () => {
    expect(summary(await all(readings, { limit: 12 }))).toEqual([
      ...[9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((k) => `a@${k}`),
      'a#b@9',
      'a#b@8',
    ]);
    expect(await all(readings, { limit: 0 })).toEqual([]);
  });

  it('select applies to scans', async () => {
    const rows = await all(readings, { where: { sensorId: 'b' }, select: ['location'], limit: 2 });
    expect(rows.map((r) => [r.sensorId, r.location, r.humidity])).toEqual([
      ['b', 'b', undefined],
      ['b', 'b', undefined],
    ]);
  });
});
