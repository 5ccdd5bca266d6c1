import { beforeEach, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  EntityNotFoundError,
  MetadataError,
  OperationAbortedError,
  PartialWriteError,
  ValidationError,
  type PropagationProgress,
  type Repository,
} from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { planPropagation } from '../../../src/denormalize/plan-propagation.js';
import { propagateCopies } from '../../../src/denormalize/propagate.js';
import { FakeDriver, GrpcCode } from '../../support/fake-driver.js';
import type { Constructor } from '../../../src/model/declarations.js';
import { Alert, Reading, SaltedReading, Sensor, TsFirstReading } from './entities.js';

let driver: FakeDriver;
let mapper: BigtableMapper;
let readings: Repository<Reading>;

const sensor = (id: string, location: string | null, kind = 'thermo'): Sensor =>
  Object.assign(new Sensor(), { id, location, kind, floor: 3 });
const ts = (i: number): Date => new Date(1_700_000_000_000 + i * 1000);
/** The sensor saved: propagation copies the stored source row, so a test changes it first, as an application does. */
const saved = async (s: Sensor): Promise<Sensor> => {
  await mapper.getRepository(Sensor).save(s);
  return s;
};

beforeEach(async () => {
  driver = new FakeDriver({ yieldInCalls: false });
  mapper = new BigtableMapper({ driver, entities: [Sensor, Reading, SaltedReading, TsFirstReading, Alert] });
  await mapper.getRepository(Sensor).saveMany(['a', 'b', 'c'].map((id) => sensor(id, `old-${id}`)));
  readings = mapper.getRepository(Reading);
  await readings.saveMany(
    ['a', 'b', 'c'].flatMap((sensorId) =>
      Array.from({ length: 25 }, (_, i) => Object.assign(new Reading(), { sensorId, ts: ts(i), temperature: i })),
    ),
  );
  driver.clearCalls();
});

const snapshot = (table: string) => new Map(driver.rows(table).map((r) => [r.key.toString(), r.cells]));

describe('planPropagation', () => {
  it('plans one key prefix read of the copies for a sensorId-first key', () => {
    const plan = readings.planPropagation(sensor('b', 'new'));
    expect(plan.entity).toBe('Reading');
    expect(plan.groups).toHaveLength(1);
    const [group] = plan.groups;
    expect(group?.match).toEqual({ sensorId: 'b' });
    expect(group?.copies.map((c) => c.property)).toEqual(['location', 'kind']);
    expect(group?.scan.sources.map((s) => [s.range.start.key.toString(), s.range.end?.key.toString()])).toEqual([
      ['b#', 'b$'],
    ]);
    expect(group?.scan.filter.kind).toBe('interleave');
  });

  it('fans out over salt buckets, and refuses a full scan unless allowed, with the reason', () => {
    expect(
      planPropagation(compileEntity(SaltedReading), sensor('b', 'x')).groups[0]?.scan.sources.map((s) => s.segment),
    ).toEqual(['00#', '01#', '02#', '03#']);
    const refused = () => planPropagation(compileEntity(TsFirstReading), sensor('b', 'x'));
    // The key design, not the request, is at fault: a MetadataError (HTTP 500), which lint reports ahead.
    expect(refused).toThrow(MetadataError);
    expect(refused).toThrow(
      "TsFirstReading.location: TsFirstReading's key starts with ts, not sensorId: propagation would scan the whole table. Fix: put sensorId first or pass { allowFullScan: true }",
    );
    const full = planPropagation(compileEntity(TsFirstReading), sensor('b', 'x'), { allowFullScan: true }).groups[0];
    expect(full?.strategy.kind).toBe('full-scan');
    expect(full?.scan.sources[0]?.range.start.key.length).toBe(0);
  });

  it('plans every copy of the source class from its key alone, and rejects a source without its key', () => {
    expect(readings.planPropagation({ id: 'b' }).groups[0]?.copies.map((c) => c.property)).toEqual([
      'location',
      'kind',
    ]);
    expect(() => readings.planPropagation({ location: 'x' })).toThrow(
      'has no id (undefined), a key part that finds the copies',
    );
    expect(() => readings.planPropagation(null as never)).toThrow(
      'propagate() needs the changed source entity (Sensor)',
    );
    expect(() => mapper.getRepository(Sensor).planPropagation(sensor('a', 'x'))).toThrow(
      'Sensor: has no @Denormalized columns',
    );
  });
});

describe('propagate', () => {
  it('rewrites only the changed copy of that sensor’s rows, one conditional write per row, reports progress, and a re-run writes nothing', async () => {
    const before = snapshot('readings');
    const progress: PropagationProgress[] = [];
    await saved(sensor('b', 'new-b'));
    driver.clearCalls();
    const startedMicros = Date.now() * 1000;
    const result = await readings.propagate(sensor('b', 'stale object: the stored row is what counts'), {
      batchSize: 10,
      onProgress: (p) => progress.push(p),
    });
    expect(result).toEqual({ scanned: 25, updated: 25 });
    const writes = driver.callsOf('checkAndMutate');
    expect(writes).toHaveLength(25);
    expect(driver.callsOf('mutateRows')).toHaveLength(0);
    expect(progress.at(-1)).toEqual(result);
    expect(progress.some((p) => p.updated === 10)).toBe(true);
    const reads = driver.callsOf('readRows').filter((c) => c.request.table === 'readings');
    expect(reads).toHaveLength(1);
    // The source row is read before the scan and once more after the writes, to catch a change meanwhile.
    expect(driver.callsOf('readRows').filter((c) => c.request.table === 'sensors')).toHaveLength(2);
    expect(reads[0]?.request.ranges?.[0]?.start.key.toString()).toBe('b#');
    const written = writes.flatMap((c) => c.request.onMatch);
    expect(new Set(written.map((x) => ('qualifier' in x ? x.qualifier : x.kind)))).toEqual(new Set(['location']));
    const versions = new Set(written.flatMap((m) => (m.kind === 'setCell' ? [m.timestampMicros] : [])));
    expect(versions.size).toBe(1);
    const [version] = versions as Set<number>;
    expect(version).toBeGreaterThanOrEqual(startedMicros);
    expect(writes.every((c) => c.request.onNoMatch.length === 0 && c.request.predicate?.kind === 'passAll')).toBe(true);
    const after = snapshot('readings');
    for (const [key, cells] of before) {
      if (!key.startsWith('b#')) {
        expect(after.get(key)).toEqual(cells);
        continue;
      }
      expect(cells.meta?.location?.[0]?.value.toString()).toBe('old-b');
      const expected = {
        ...cells,
        meta: { ...cells.meta, location: [{ value: Buffer.from('new-b'), timestampMicros: version }] },
      };
      expect(after.get(key)).toEqual(expected);
    }
    driver.clearCalls();
    expect(await readings.propagate(sensor('b', 'new-b'))).toEqual({ scanned: 25, updated: 0 });
    expect(driver.callsOf('checkAndMutate')).toHaveLength(0);
    expect(driver.callsOf('mutateRows')).toHaveLength(0);
  });

  it('writes every new copy at its start time, replacing older copies of any age and filling rows that had none', async () => {
    const at = new Date(Date.UTC(2020, 0, 1));
    await readings.update({ sensorId: 'b', ts: ts(99) }, { temperature: 1 });
    driver.seed({
      table: 'readings',
      rowKey: Buffer.from(`b#${ts(98).getTime()}`),
      rowKeyText: '',
      idempotent: true,
      mutations: [
        {
          kind: 'setCell',
          family: 'meta',
          qualifier: 'location',
          timestampMicros: at.getTime() * 1000,
          value: Buffer.from('older'),
        },
      ],
    });
    const startedMicros = Date.now() * 1000;
    expect(await readings.propagate(await saved(sensor('b', 'moved')))).toEqual({ scanned: 27, updated: 27 });
    const version = driver.row('readings', `b#${ts(0).getTime()}`)?.cells.meta?.location?.[0]?.timestampMicros ?? 0;
    expect(version).toBeGreaterThanOrEqual(startedMicros);
    const filled = driver.row('readings', `b#${ts(99).getTime()}`)?.cells.meta;
    expect(filled?.location?.map((c) => [c.value.toString(), c.timestampMicros])).toEqual([['moved', version]]);
    expect(filled?.kind?.[0]?.value.toString()).toBe('thermo');
    expect(
      driver
        .row('readings', `b#${ts(98).getTime()}`)
        ?.cells.meta?.location?.map((c) => [c.value.toString(), c.timestampMicros]),
    ).toEqual([['moved', version]]);
  });

  it('replaces a copy whatever its timestamp: a copy cell from a clock a minute ahead does not block it', async () => {
    const ahead = (Date.now() + 60_000) * 1000;
    const key = Buffer.from(`b#${ts(7).getTime()}`);
    driver.seed({
      table: 'readings',
      rowKey: key,
      rowKeyText: '',
      idempotent: true,
      mutations: [
        { kind: 'setCell', family: 'meta', qualifier: 'location', timestampMicros: ahead, value: Buffer.from('ahead') },
      ],
    });
    expect(await readings.propagate(await saved(sensor('b', 'current')))).toEqual({ scanned: 25, updated: 25 });
    expect(driver.row('readings', key.toString())?.cells.meta?.location?.map((c) => c.value.toString())).toEqual([
      'current',
    ]);
    expect((await readings.findOne({ sensorId: 'b', ts: ts(7) }))?.location).toBe('current');
  });

  it('propagates the stored source, so propagating an older object does not bring an old value back', async () => {
    await saved(sensor('b', 'newest'));
    expect(await readings.propagate(sensor('b', 'older'))).toEqual({ scanned: 25, updated: 25 });
    expect((await readings.findOne({ sensorId: 'b', ts: ts(3) }))?.location).toBe('newest');
    const missing = await readings.propagate(sensor('zz', 'x')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(EntityNotFoundError);
    expect((missing as Error).message).toBe('Sensor: no row with key { id: "zz" } (row key "zz")');
  });

  it('runs again when the source changes while it writes, so the newest value has the last word', async () => {
    const checkAndMutate = driver.checkAndMutate.bind(driver);
    let changed = false;
    driver.checkAndMutate = async (request) => {
      if (!changed) {
        changed = true;
        await mapper.getRepository(Sensor).save(sensor('b', 'changed-meanwhile'));
      }
      return checkAndMutate(request);
    };
    const result = await readings.propagate(await saved(sensor('b', 'first')));
    expect(result).toEqual({ scanned: 50, updated: 50 });
    const rows = driver.rows('readings').filter((r) => r.key.toString().startsWith('b#'));
    expect(new Set(rows.map((r) => r.cells.meta?.location?.[0]?.value.toString()))).toEqual(
      new Set(['changed-meanwhile']),
    );
  });

  it('never re-creates a row deleted between its scan and its write', async () => {
    const checkAndMutate = driver.checkAndMutate.bind(driver);
    driver.checkAndMutate = async (request) => {
      await driver.mutateRow({
        table: request.table,
        rowKey: request.rowKey,
        rowKeyText: '',
        mutations: [{ kind: 'deleteFromRow' }],
        idempotent: true,
      });
      return checkAndMutate(request);
    };
    expect(await readings.propagate(await saved(sensor('b', 'ghost')))).toEqual({ scanned: 25, updated: 0 });
    expect(driver.callsOf('checkAndMutate')).toHaveLength(25);
    expect(driver.rows('readings').filter((r) => r.key.toString().startsWith('b#'))).toEqual([]);
  });

  it('clears copies when the source field is null', async () => {
    expect(await readings.propagate(await saved(sensor('a', null)))).toEqual({ scanned: 25, updated: 25 });
    const row = await readings.findOne({ sensorId: 'a', ts: ts(3) });
    expect(row?.location).toBeUndefined();
    expect(row?.kind).toBe('thermo');
  });

  it('propagates over every salt bucket, and over the whole table only with allowFullScan', async () => {
    const salted = mapper.getRepository(SaltedReading);
    await salted.saveMany(
      ['a', 'b'].flatMap((sensorId) =>
        Array.from({ length: 20 }, (_, seq) => Object.assign(new SaltedReading(), { sensorId, seq, temperature: 1 })),
      ),
    );
    expect(await salted.propagate(await saved(sensor('a', 'far')))).toEqual({ scanned: 20, updated: 20 });
    const located = await Promise.all(
      driver.rows('salted-readings').map((r) => r.cells.m?.location?.[0]?.value.toString()),
    );
    expect(located.filter((l) => l === 'far')).toHaveLength(20);
    expect(located.filter((l) => l === 'old-b')).toHaveLength(20);

    const first = mapper.getRepository(TsFirstReading);
    await first.saveMany(
      ['a', 'b', 'c'].flatMap((sensorId) =>
        [1, 2].map((i) => Object.assign(new TsFirstReading(), { ts: ts(i), sensorId })),
      ),
    );
    await expect(first.propagate(sensor('c', 'x'))).rejects.toThrow(
      "TsFirstReading's key starts with ts, not sensorId",
    );
    expect(await first.propagate(await saved(sensor('c', 'x')), { allowFullScan: true })).toEqual({
      scanned: 6,
      updated: 2,
    });
    expect(
      (
        await first.findMany([
          { ts: ts(1), sensorId: 'c' },
          { ts: ts(1), sensorId: 'b' },
        ])
      ).map((r) => r?.location),
    ).toEqual(['x', 'old-b']);
  });

  it('matches rows by a column reference on a full scan', async () => {
    const alerts = mapper.getRepository(Alert);
    await alerts.saveMany(['a', 'b', 'a'].map((sensorId, i) => Object.assign(new Alert(), { id: `al${i}`, sensorId })));
    await alerts.save(Object.assign(new Alert(), { id: 'none', floor: 1 }));
    await saved(sensor('a', 'old-a'));
    await mapper.getRepository(Sensor).update({ id: 'a' }, { floor: 9 });
    expect(await alerts.propagate(Object.assign(new Sensor(), { id: 'a' }), { allowFullScan: true })).toEqual({
      scanned: 4,
      updated: 2,
    });
    expect((await alerts.findMany(['al0', 'al1', 'al2', 'none'].map((id) => ({ id })))).map((a) => a?.floor)).toEqual([
      9, 3, 9, 1,
    ]);
  });

  it('reports rows the server rejects in a PartialWriteError, after writing the others', async () => {
    driver.reject(`c#${ts(4).getTime()}`, GrpcCode.Internal);
    const error = (await readings
      .propagate(await saved(sensor('c', 'z')))
      .catch((e: unknown) => e)) as PartialWriteError;
    expect(error).toBeInstanceOf(PartialWriteError);
    expect(error.succeeded).toBe(24);
    expect(error.failures.map((f) => [f.rowKey, f.grpcCode, f.entity])).toEqual([
      [`c#${ts(4).getTime()}`, GrpcCode.Internal, { sensorId: 'c', ts: ts(4) }],
    ]);
  });

  it('validates its options', async () => {
    await expect(readings.propagate(sensor('a', 'x'), { batchSize: 0 })).rejects.toThrow(
      'batchSize must be a positive integer',
    );
    await expect(readings.propagate(sensor('a', 'x'), { concurrency: 1e7 })).rejects.toThrow(
      'concurrency must be a positive integer of at most 256, got 10000000',
    );
  });

  it('stops at an abort: no write starts after it, and it rejects with the typed error', async () => {
    const schema = compileEntity(Reading);
    const aborted = new AbortController();
    aborted.abort();
    const sources = (source: Constructor) => mapper.getRepository(source as Constructor<object>);
    await saved(sensor('c', 'y'));
    driver.clearCalls();
    await expect(
      propagateCopies(driver, schema, sensor('c', 'x'), sources, {}, { signal: aborted.signal }),
    ).rejects.toBeInstanceOf(OperationAbortedError);
    expect(driver.callsOf('checkAndMutate')).toHaveLength(0);

    const controller = new AbortController();
    const checkAndMutate = driver.checkAndMutate.bind(driver);
    driver.checkAndMutate = async (request) => {
      if (driver.callsOf('checkAndMutate').length === 5) controller.abort();
      return checkAndMutate(request);
    };
    const error = await propagateCopies(
      driver,
      schema,
      sensor('c', 'y'),
      sources,
      { concurrency: 2 },
      { signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationAbortedError);
    expect(driver.callsOf('checkAndMutate').length).toBeLessThanOrEqual(5 + 2);
  });

  it('mapper.propagate reaches every registered dependent of the source class', async () => {
    await mapper.getRepository(SaltedReading).save(Object.assign(new SaltedReading(), { sensorId: 'a', seq: 1 }));
    const progress: PropagationProgress[] = [];
    const result = await mapper.propagate(await saved(sensor('a', 'everywhere')), {
      allowFullScan: true,
      onProgress: (p) => progress.push(p),
    });
    expect(result.dependents.map((d) => [d.entity, d.updated])).toEqual([
      ['Reading', 25],
      ['SaltedReading', 1],
      ['TsFirstReading', 0],
      ['Alert', 0],
    ]);
    expect(result).toMatchObject({ updated: 26 });
    expect(progress.at(-1)).toEqual({ scanned: result.scanned, updated: 26 });
    await expect(mapper.propagate({ id: 'a', location: 'x' })).rejects.toThrow(ValidationError);
  });
});
