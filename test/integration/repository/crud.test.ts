import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, ValidationError, type EntityKey, type Repository } from '../../../src/index.js';
import {
  closeMapper,
  GeoPoint,
  makeEntities,
  openMapper,
  Place,
  rawRow,
  recordingDriver,
  type DriverRecord,
} from '../../fixtures/entities.js';

const E = makeEntities('crud');
type AllTypes = InstanceType<typeof E.AllTypes>;
type Job = InstanceType<typeof E.Job>;
type Item = InstanceType<typeof E.Item>;

let mapper: BigtableMapper;
let record: DriverRecord;
let all: Repository<AllTypes>;
let jobs: Repository<Job>;
let items: Repository<Item>;

beforeAll(async () => {
  const base = openMapper([]);
  const recorded = recordingDriver(base.driver);
  record = recorded.record;
  mapper = new BigtableMapper({ driver: recorded.driver, entities: [E.AllTypes, E.Job, E.Item] });
  const { changes } = await mapper.sync();
  expect(changes.filter((c) => c.kind === 'create-table')).toHaveLength(3);
  all = mapper.getRepository(E.AllTypes);
  jobs = mapper.getRepository(E.Job);
  items = mapper.getRepository(E.Item);
});

afterAll(() => closeMapper(mapper, [E.tables.allTypes, E.tables.jobs, E.tables.items]));

function place(): Place {
  const p = new Place();
  p.name = 'Lab';
  p.point = Object.assign(new GeoPoint(), { lat: -33.86, lng: 151.2 });
  p.openedAt = new Date('2020-02-29T08:30:00.000Z');
  return p;
}

function allTypes(name: string, overrides: Partial<AllTypes> = {}): AllTypes {
  return Object.assign(new E.AllTypes(), {
    name,
    u: 42,
    i: -17,
    big: -(2n ** 40n),
    iso: new Date('2023-05-01T12:00:00.123Z'),
    sec: new Date('2023-05-01T12:00:07.000Z'),
    ms: new Date('2023-05-01T12:00:00.456Z'),
    rank: 7,
    str: 'héllo wörld ✓',
    int: -9_007_199_254_740_991,
    float: 21.5,
    negFloat: -273.15,
    nan: Number.NaN,
    yes: true,
    no: false,
    date: new Date('1999-12-31T23:59:59.999Z'),
    bigValue: -(2n ** 63n),
    json: { tags: ['a', 'b'], nested: { n: 1, ok: true, none: null } },
    bytes: Buffer.from([0x00, 0xff, 0x80, 0x7f]),
    place: place(),
    ...overrides,
  });
}

/** The key text the spec (DESIGN.md §2) says the entity must have, computed here independently of the codecs. */
function expectedKeyText(e: AllTypes): string {
  const escape = (s: string) => s.replace(/%/g, '%25').replace(/#/g, '%23');
  const pad = (n: bigint, width: number) => n.toString().padStart(width, '0');
  return [
    'row',
    escape(e.name),
    pad(BigInt(e.u), 6),
    pad(BigInt(e.i) + 2n ** 53n, 17),
    pad(e.big + 2n ** 63n, 20),
    e.iso.toISOString(),
    pad(BigInt(e.sec.getTime() / 1000), 10),
    pad(10n ** 13n - 1n - BigInt(e.ms.getTime()), 13),
    pad(9999n - BigInt(e.rank), 4),
  ].join('#');
}

function keyOf(e: AllTypes): EntityKey<AllTypes> {
  return { name: e.name, u: e.u, i: e.i, big: e.big, iso: e.iso, sec: e.sec, ms: e.ms, rank: e.rank };
}

describe('save / findOne round trip', () => {
  it('round-trips every column type and every key-part type', async () => {
    const entity = allTypes('weird #%/ü name');
    await all.save(entity);
    const found = await all.findOne(keyOf(entity));
    expect(found).toBeInstanceOf(E.AllTypes);
    expect(found).toEqual(entity);
    // Types, not just equal-looking values.
    expect(typeof found!.big).toBe('bigint');
    expect(found!.big).toBe(-(2n ** 40n));
    expect(found!.bigValue).toBe(-(2n ** 63n));
    expect(found!.int).toBe(-9_007_199_254_740_991);
    expect(Number.isNaN(found!.nan)).toBe(true);
    expect(found!.negFloat).toBe(-273.15);
    expect(found!.yes).toBe(true);
    expect(found!.no).toBe(false);
    expect(found!.date).toBeInstanceOf(Date);
    expect(found!.date!.getTime()).toBe(new Date('1999-12-31T23:59:59.999Z').getTime());
    expect(Buffer.isBuffer(found!.bytes)).toBe(true);
    expect(found!.bytes!.equals(Buffer.from([0x00, 0xff, 0x80, 0x7f]))).toBe(true);
    expect(found!.iso).toBeInstanceOf(Date);
    expect(found!.ms.getTime()).toBe(entity.ms.getTime());
    expect(found!.sec.getTime()).toBe(entity.sec.getTime());
    expect(found!.name).toBe('weird #%/ü name');
    // class-transformer hydrated real instances, nested ones included.
    expect(found!.place).toBeInstanceOf(Place);
    expect(found!.place!.point).toBeInstanceOf(GeoPoint);
    expect(found!.place!.openedAt).toBeInstanceOf(Date);
    expect(found!.place!.describe()).toBe('Lab@-33.86,151.2');
    expect(found!.place!.point.isNorthern()).toBe(false);
    expect(found!.sparse).toBeUndefined();
  });

  it('round-trips key parts at their extremes (and a second row does not disturb the first)', async () => {
    const low = allTypes('a', {
      u: 0,
      i: -(2 ** 53 - 1),
      big: -(2n ** 63n),
      rank: 0,
      ms: new Date(0),
      sec: new Date(0),
      iso: new Date(0),
    });
    const high = allTypes('b', {
      u: 999_999,
      i: 2 ** 53 - 1,
      big: 2n ** 63n - 1n,
      rank: 9999,
      ms: new Date(9_999_999_999_999),
      sec: new Date(9_999_999_999_000),
    });
    await all.save(low);
    await all.save(high);
    expect(await all.findOne(keyOf(low))).toEqual(low);
    expect(await all.findOne(keyOf(high))).toEqual(high);
  });

  it('writes exactly what compileSave() shows: key bytes and cells, and no cell for undefined fields', async () => {
    const entity = allTypes('compiled', { sparse: undefined, json: undefined });
    const before = Date.now();
    const compiled = all.compileSave(entity);
    await all.save(entity);
    const after = Date.now();

    expect(compiled.rowKeyText).toBe(expectedKeyText(entity));
    expect(compiled.rowKey.equals(Buffer.from(expectedKeyText(entity), 'utf8'))).toBe(true);

    const raw = await rawRow(mapper, E.tables.allTypes, compiled.rowKey);
    expect(raw).toBeDefined();
    expect(raw!.key.equals(compiled.rowKey)).toBe(true);
    const sets = compiled.mutations.flatMap((m) => (m.kind === 'setCell' ? [m] : []));
    expect(sets).toHaveLength(compiled.mutations.length);
    const landed = raw!.cells.map((c) => `${c.family}:${c.qualifier}=${c.value.toString('hex')}`).sort();
    const planned = sets.map((c) => `${c.family}:${c.qualifier}=${c.value.toString('hex')}`).sort();
    expect(landed).toEqual(planned);
    // Sparse: no cell at all for the undefined properties.
    expect(raw!.cells.some((c) => c.qualifier === 'sparse' || c.qualifier === 'json')).toBe(false);
    expect(raw!.cells).toHaveLength(11); // 13 columns, minus the undefined sparse and json
    // Every cell carries one explicit, millisecond-granular timestamp taken at save time.
    const stamps = new Set(raw!.cells.map((c) => c.timestampMicros));
    expect(stamps.size).toBe(1);
    const [stamp] = [...stamps] as [number];
    expect(stamp % 1000).toBe(0);
    expect(stamp).toBeGreaterThanOrEqual(before * 1000);
    expect(stamp).toBeLessThanOrEqual(after * 1000);

    // The stored bytes follow DESIGN.md §4, checked against a few hand-made encodings.
    const cell = (q: string) => raw!.cells.find((c) => c.qualifier === q)!.value;
    expect(cell('str').toString('utf8')).toBe('héllo wörld ✓');
    expect(cell('float').equals(Buffer.from('4035800000000000', 'hex'))).toBe(true);
    expect(cell('int').readBigInt64BE()).toBe(-9_007_199_254_740_991n);
    expect(cell('yes').equals(Buffer.from([1]))).toBe(true);
    expect(cell('no').equals(Buffer.from([0]))).toBe(true);
    expect(cell('date').readBigInt64BE()).toBe(BigInt(new Date('1999-12-31T23:59:59.999Z').getTime()));
    expect(cell('bytes').equals(Buffer.from([0x00, 0xff, 0x80, 0x7f]))).toBe(true);
    expect(JSON.parse(cell('place').toString('utf8'))).toEqual({
      name: 'Lab',
      point: { lat: -33.86, lng: 151.2 },
      openedAt: '2020-02-29T08:30:00.000Z',
    });

    const found = await all.findOne(keyOf(entity));
    expect(found!.sparse).toBeUndefined();
    expect(found!.json).toBeUndefined();
    expect('sparse' in found! && found!.sparse !== undefined).toBe(false);
  });

  it('returns undefined for a missing row', async () => {
    expect(await all.findOne(keyOf(allTypes('never-saved')))).toBeUndefined();
  });
});

describe('update, replace, delete', () => {
  const job = (id: string, fields: Partial<Job>): Job => Object.assign(new E.Job(), { id, ...fields });

  it('update writes only the given fields; null deletes that cell', async () => {
    // An old explicit cell time, so any rewrite by update() would show up as a second version.
    await jobs.save(
      job('u1', {
        status: 'pending',
        lockedBy: 'w1',
        error: 'boom',
        attempts: 1,
        updatedAt: new Date('2024-01-01T00:00:00Z'),
      }),
    );
    await jobs.update({ id: 'u1' }, { status: 'running', error: null });
    const found = await jobs.findOne({ id: 'u1' });
    expect(found).toMatchObject({ id: 'u1', status: 'running', lockedBy: 'w1', attempts: 1 });
    expect(found!.error).toBeUndefined();
    const raw = await rawRow(mapper, E.tables.jobs, 'u1');
    expect(raw!.cells.filter((c) => c.qualifier === 'error')).toEqual([]);
    // lockedBy and attempts were not rewritten: still exactly one version each.
    expect(raw!.cells.filter((c) => c.qualifier === 'lockedBy')).toHaveLength(1);
    expect(raw!.cells.filter((c) => c.qualifier === 'attempts')).toHaveLength(1);
    expect(raw!.cells.filter((c) => c.qualifier === 'status').map((c) => c.value.toString('utf8'))).toEqual([
      'running',
      'pending',
    ]);
  });

  it('update cannot change key parts (ValidationError, nothing sent)', async () => {
    await jobs.save(job('u2', { status: 'pending' }));
    const calls = record.calls.length;
    await expect(jobs.update({ id: 'u2' }, { id: 'other', status: 'x' })).rejects.toBeInstanceOf(ValidationError);
    expect(record.calls.length).toBe(calls);
    expect(await jobs.findOne({ id: 'other' })).toBeUndefined();
    expect((await jobs.findOne({ id: 'u2' }))!.status).toBe('pending');
  });

  it('replace removes every other cell in one atomic mutation', async () => {
    await jobs.save(job('r1', { status: 'pending', lockedBy: 'w1', error: 'e', attempts: 3, hits: 9 }));
    const calls = record.calls.length;
    await jobs.replace(job('r1', { status: 'fresh' }));
    expect(record.calls.slice(calls)).toEqual(['mutateRow']);
    const found = await jobs.findOne({ id: 'r1' });
    expect(found).toEqual(Object.assign(new E.Job(), { id: 'r1', status: 'fresh', updatedAt: found!.updatedAt }));
    const raw = await rawRow(mapper, E.tables.jobs, 'r1');
    expect(raw!.cells.map((c) => `${c.family}:${c.qualifier}`)).toEqual(['s:status']);
    expect(raw!.cells[0]!.value.toString('utf8')).toBe('fresh');
  });

  it('delete and deleteMany remove exactly the given rows', async () => {
    const ids = ['d1', 'd2', 'd3', 'd4', 'd5'];
    await items.saveMany(ids.map((id, n) => Object.assign(new E.Item(), { id, n, label: id })));
    await items.delete({ id: 'd1' });
    expect(await items.findOne({ id: 'd1' })).toBeUndefined();
    expect(await rawRow(mapper, E.tables.items, 'd1')).toBeUndefined();
    const result = await items.deleteMany([{ id: 'd2' }, { id: 'd4' }]);
    expect(result.written).toBe(2);
    const found = await items.findMany(ids.map((id) => ({ id })));
    expect(found.map((f) => f?.id)).toEqual([undefined, undefined, 'd3', undefined, 'd5']);
    expect(await rawRow(mapper, E.tables.items, 'd2')).toBeUndefined();
  });
});

describe('increment', () => {
  it('starts at 0 on a missing cell and returns each new value, negative amounts included', async () => {
    expect(await jobs.findOne({ id: 'ctr' })).toBeUndefined();
    expect(await jobs.increment({ id: 'ctr' }, 'hits')).toBe(1);
    expect(await jobs.increment({ id: 'ctr' }, 'hits', 41)).toBe(42);
    expect(await jobs.increment({ id: 'ctr' }, 'hits', -50)).toBe(-8);
    expect(await jobs.increment({ id: 'ctr' }, 'hits', 10n)).toBe(2);
    expect((await jobs.findOne({ id: 'ctr' }))!.hits).toBe(2);
    const raw = await rawRow(mapper, E.tables.jobs, 'ctr');
    expect(raw!.cells[0]!.value.readBigInt64BE()).toBe(2n);
  });

  it('increments a cell written by save (same int64 layout)', async () => {
    await jobs.save(job2('ctr2', 100));
    expect(await jobs.increment({ id: 'ctr2' }, 'hits', 5)).toBe(105);
    expect((await jobs.findOne({ id: 'ctr2' }))!.hits).toBe(105);
  });

  it('rejects non-int columns and fractional amounts before sending anything', async () => {
    const calls = record.calls.length;
    // @ts-expect-error status is a string property: not a counter (checked at run time too)
    await expect(jobs.increment({ id: 'ctr' }, 'status')).rejects.toBeInstanceOf(ValidationError);
    await expect(jobs.increment({ id: 'ctr' }, 'score')).rejects.toBeInstanceOf(ValidationError);
    await expect(jobs.increment({ id: 'ctr' }, 'nope' as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(jobs.increment({ id: 'ctr' }, 'hits', 1.5)).rejects.toBeInstanceOf(ValidationError);
    expect(record.calls.length).toBe(calls);
    expect((await jobs.findOne({ id: 'ctr' }))!.hits).toBe(2);
  });

  function job2(id: string, hits: number): Job {
    return Object.assign(new E.Job(), { id, hits });
  }
});

describe('saveIf (CheckAndMutateRow)', () => {
  const t = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));
  const job = (id: string, fields: Partial<Job>): Job => Object.assign(new E.Job(), { id, ...fields });

  it('equals tests only the latest version: an overwritten older value never matches', async () => {
    await jobs.save(job('c1', { status: 'pending', updatedAt: t(1) }));
    await jobs.save(job('c1', { status: 'done', updatedAt: t(2) }));
    const raw = await rawRow(mapper, E.tables.jobs, 'c1');
    expect(raw!.cells.map((c) => c.value.toString('utf8'))).toEqual(['done', 'pending']);

    expect(
      await jobs.saveIf(job('c1', { status: 'running', updatedAt: t(3) }), { column: 'status', equals: 'pending' }),
    ).toBe(false);
    expect((await jobs.findOne({ id: 'c1' }))!.status).toBe('done');
    expect((await rawRow(mapper, E.tables.jobs, 'c1'))!.cells).toHaveLength(2);

    expect(
      await jobs.saveIf(job('c1', { status: 'archived', updatedAt: t(4) }), { column: 'status', equals: 'done' }),
    ).toBe(true);
    const found = await jobs.findOne({ id: 'c1' });
    expect(found!.status).toBe('archived');
    expect(found!.updatedAt!.getTime()).toBe(t(4).getTime());
  });

  it('notEquals applies when the latest value differs or the cell is missing', async () => {
    await jobs.save(job('c2', { status: 'done', updatedAt: t(1) }));
    expect(
      await jobs.saveIf(job('c2', { status: 'again', updatedAt: t(2) }), { column: 'status', notEquals: 'done' }),
    ).toBe(false);
    expect((await jobs.findOne({ id: 'c2' }))!.status).toBe('done');
    expect(
      await jobs.saveIf(job('c2', { lockedBy: 'w9', updatedAt: t(3) }), { column: 'status', notEquals: 'pending' }),
    ).toBe(true);
    expect((await jobs.findOne({ id: 'c2' }))!.lockedBy).toBe('w9');
    // Missing cell: error is absent, so "error != x" holds.
    expect(await jobs.saveIf(job('c2', { attempts: 1, updatedAt: t(4) }), { column: 'error', notEquals: 'x' })).toBe(
      true,
    );
    expect((await jobs.findOne({ id: 'c2' }))!.attempts).toBe(1);
  });

  it('exists: false acts as a lock; exists: true needs the cell', async () => {
    await jobs.save(job('c3', { status: 'pending', updatedAt: t(1) }));
    expect(
      await jobs.saveIf(job('c3', { lockedBy: 'A', updatedAt: t(2) }), { column: 'lockedBy', exists: false }),
    ).toBe(true);
    expect(
      await jobs.saveIf(job('c3', { lockedBy: 'B', updatedAt: t(3) }), { column: 'lockedBy', exists: false }),
    ).toBe(false);
    expect((await jobs.findOne({ id: 'c3' }))!.lockedBy).toBe('A');
    expect(
      await jobs.saveIf(job('c3', { status: 'running', updatedAt: t(4) }), { column: 'lockedBy', exists: true }),
    ).toBe(true);
    expect(await jobs.saveIf(job('c3', { status: 'bad', updatedAt: t(5) }), { column: 'error', exists: true })).toBe(
      false,
    );
    expect((await jobs.findOne({ id: 'c3' }))!.status).toBe('running');
  });

  it('rowExists: false inserts only when the row is absent', async () => {
    expect(await jobs.saveIf(job('c4', { status: 'first', updatedAt: t(1) }), { rowExists: false })).toBe(true);
    expect(await jobs.saveIf(job('c4', { status: 'second', updatedAt: t(2) }), { rowExists: false })).toBe(false);
    expect((await jobs.findOne({ id: 'c4' }))!.status).toBe('first');
    expect(await jobs.saveIf(job('c4', { status: 'third', updatedAt: t(3) }), { rowExists: true })).toBe(true);
    expect((await jobs.findOne({ id: 'c4' }))!.status).toBe('third');
    expect(await jobs.saveIf(job('c5', { status: 'x', updatedAt: t(1) }), { rowExists: true })).toBe(false);
    expect(await jobs.findOne({ id: 'c5' })).toBeUndefined();
  });
});
