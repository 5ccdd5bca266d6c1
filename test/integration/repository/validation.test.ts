import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  KeyEncodingError,
  range,
  ValidationError,
  ValueEncodingError,
  type Repository,
  type ScanQuery,
} from '../../../src/index.js';
import { closeMapper, makeEntities, openMapper, recordingDriver, type DriverRecord } from '../../fixtures/entities.js';

const E = makeEntities('valid');
type Reading = InstanceType<typeof E.Reading>;
type Measurement = InstanceType<typeof E.Measurement>;
type PageView = InstanceType<typeof E.PageView>;

let mapper: BigtableMapper;
let record: DriverRecord;
let readings: Repository<Reading>;
let measurements: Repository<Measurement>;
let views: Repository<PageView>;
const TS = new Date('2024-01-01T00:00:00.000Z');

beforeAll(async () => {
  const recorded = recordingDriver(openMapper([]).driver);
  record = recorded.record;
  mapper = new BigtableMapper({ driver: recorded.driver, entities: [E.Reading, E.Measurement, E.PageView] });
  await mapper.sync();
  readings = mapper.getRepository(E.Reading);
  measurements = mapper.getRepository(E.Measurement);
  views = mapper.getRepository(E.PageView);
  await readings.save(Object.assign(new E.Reading(), { sensorId: 's1', ts: TS, humidity: 0.5 }));
});

afterAll(() => closeMapper(mapper, [E.tables.readings, E.tables.measurements, E.tables.pageViews]));

/** Runs `action`, expects it to reject with `type`, and checks that nothing reached the driver. */
async function rejectsBeforeSending(
  action: () => Promise<unknown>,
  type: new (...args: never[]) => Error,
): Promise<Error> {
  const calls = record.calls.length;
  let caught: unknown;
  try {
    await action();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(type);
  expect(record.calls.slice(calls)).toEqual([]);
  return caught as Error;
}

const scanAll = <T extends object>(repo: Repository<T>, query: ScanQuery<T>) =>
  lastValueFrom(repo.scan(query).pipe(toArray()));

describe('bad input is rejected before anything is sent', () => {
  it('findOne / findMany / delete / update with a missing key part', async () => {
    await rejectsBeforeSending(() => readings.findOne({ sensorId: 's1' }), ValidationError);
    await rejectsBeforeSending(() => readings.findOne({ ts: TS }), ValidationError);
    await rejectsBeforeSending(
      () => readings.findMany([{ sensorId: 's1', ts: TS }, { sensorId: 's2' }]),
      ValidationError,
    );
    await rejectsBeforeSending(() => readings.delete({ sensorId: 's1' }), ValidationError);
    await rejectsBeforeSending(() => readings.update({ ts: TS }, { humidity: 1 }), ValidationError);
    await rejectsBeforeSending(() => views.findOne({ userId: 'u1', site: 'web' }), ValidationError);
  });

  it('bad key values → KeyEncodingError', async () => {
    await rejectsBeforeSending(() => readings.findOne({ sensorId: 42 as unknown as string, ts: TS }), KeyEncodingError);
    await rejectsBeforeSending(() => readings.findOne({ sensorId: '', ts: TS }), KeyEncodingError);
    await rejectsBeforeSending(() => readings.findOne({ sensorId: 's1', ts: new Date(Number.NaN) }), KeyEncodingError);
    await rejectsBeforeSending(
      () => readings.findOne({ sensorId: 's1', ts: '2024-01-01' as unknown as Date }),
      KeyEncodingError,
    );
    await rejectsBeforeSending(
      () => readings.save(Object.assign(new E.Reading(), { sensorId: 's1', ts: new Date(-1), humidity: 1 })),
      KeyEncodingError,
    );
    await rejectsBeforeSending(
      () => measurements.save(Object.assign(new E.Measurement(), { host: 'h', seq: -1, value: 1 })),
      KeyEncodingError,
    );
    await rejectsBeforeSending(
      () => measurements.save(Object.assign(new E.Measurement(), { host: 'h', seq: 1.5, value: 1 })),
      KeyEncodingError,
    );
    await rejectsBeforeSending(
      () => measurements.save(Object.assign(new E.Measurement(), { host: 'h', seq: 1_000_000, value: 1 })),
      KeyEncodingError,
    );
    await rejectsBeforeSending(
      () => measurements.save(Object.assign(new E.Measurement(), { host: 'h'.repeat(5_000), seq: 1, value: 1 })),
      KeyEncodingError,
    );
    await rejectsBeforeSending(
      () => scanAll(measurements, { where: { host: 'h', seq: range({ gte: -5 }) } }),
      KeyEncodingError,
    );
  });

  it('bad column values → ValueEncodingError; a save with nothing to write → ValidationError', async () => {
    await rejectsBeforeSending(
      () => measurements.save(Object.assign(new E.Measurement(), { host: 'h', seq: 1, value: 1.5 })),
      ValueEncodingError,
    );
    await rejectsBeforeSending(
      () =>
        readings.save(Object.assign(new E.Reading(), { sensorId: 's1', ts: TS, humidity: '0.5' as unknown as number })),
      ValueEncodingError,
    );
    await rejectsBeforeSending(
      () =>
        readings.save(Object.assign(new E.Reading(), { sensorId: 's1', ts: TS, tags: [1n] as unknown as string[] })),
      ValueEncodingError,
    );
    await rejectsBeforeSending(
      () => readings.save(Object.assign(new E.Reading(), { sensorId: 's1', ts: TS })),
      ValidationError,
    );
  });

  it('scan where on a non-key property, a range on a non-next component, bad limits', async () => {
    await rejectsBeforeSending(() => scanAll(readings, { where: { humidity: 0.5 } }), ValidationError);
    await rejectsBeforeSending(() => scanAll(measurements, { where: { seq: range({ gt: 1 }) } }), ValidationError);
    await rejectsBeforeSending(() => scanAll(measurements, { where: { seq: 3 } }), ValidationError);
    await rejectsBeforeSending(
      () => scanAll(views, { where: { userId: 'u1', at: range({ gte: TS }) } }),
      ValidationError,
    );
    await rejectsBeforeSending(
      () => scanAll(measurements, { where: { host: range({ gte: 'a' }), seq: 1 } }),
      ValidationError,
    );
    await rejectsBeforeSending(
      () => scanAll(measurements, { where: { host: 'h', seq: range({ gt: 1, gte: 2 }) } }),
      ValidationError,
    );
    await rejectsBeforeSending(() => scanAll(readings, { limit: -1 }), ValidationError);
    await rejectsBeforeSending(() => firstValueFrom(readings.scan({ where: { location: 'roof' } })), ValidationError);
    expect(() => measurements.planScan({ where: { seq: range({ gt: 1 }) } })).toThrow(ValidationError);
  });

  it('select of an unknown property, bad versions', async () => {
    const bad = ['nope'] as unknown as (keyof Reading & string)[];
    await rejectsBeforeSending(() => readings.findOne({ sensorId: 's1', ts: TS }, { select: bad }), ValidationError);
    await rejectsBeforeSending(() => scanAll(readings, { select: bad }), ValidationError);
    await rejectsBeforeSending(() => readings.findOne({ sensorId: 's1', ts: TS }, { versions: 0 }), ValidationError);
    await rejectsBeforeSending(() => readings.page({ limit: 10, select: bad }), ValidationError);
  });

  it('conditions and bulk options', async () => {
    const r = Object.assign(new E.Reading(), { sensorId: 's1', ts: TS, humidity: 1 });
    await rejectsBeforeSending(
      () => readings.saveIf(r, { column: 'nope' as keyof Reading & string, equals: 1 }),
      ValidationError,
    );
    await rejectsBeforeSending(
      () => readings.saveIf(r, { column: 'humidity', equals: 'not a float' }),
      ValueEncodingError,
    );
    await rejectsBeforeSending(() => readings.saveMany([r], { batchSize: 0 }), ValidationError);
  });

  it('the valid row is untouched by all of the above', async () => {
    const found = await readings.findOne({ sensorId: 's1', ts: TS });
    expect(found!.humidity).toBe(0.5);
  });
});
