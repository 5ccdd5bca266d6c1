import { createHash } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { range, type BigtableMapper, type Repository, type ScanQuery } from '../../../src/index.js';
import { closeMapper, makeEntities, openMapper, rawKeys, SINCE_CUTOFF } from '../../fixtures/entities.js';

const E = makeEntities('since');
type SinceEvent = InstanceType<typeof E.SinceEvent>;

let mapper: BigtableMapper;
let events: Repository<SinceEvent>;

const HOUR = 3_600_000;
const CUT = SINCE_CUTOFF.getTime();
const DEVICES = ['d1', 'd2', 'd10'];
/** 10 hourly rows before the cutoff and 10 from the cutoff on (the first exactly at it). */
const OFFSETS = [
  ...Array.from({ length: 10 }, (_, k) => -(10 - k) * HOUR),
  ...Array.from({ length: 10 }, (_, k) => k * HOUR),
];
const at = (offset: number) => new Date(CUT + offset);
const label = (e: SinceEvent) => `${e.deviceId}@${(e.ts.getTime() - CUT) / HOUR}`;

function all(query: ScanQuery<SinceEvent> = {}): Promise<SinceEvent[]> {
  return lastValueFrom(events.scan(query).pipe(toArray()));
}

/** Every row as `device@hoursFromCutoff`, in logical key order (device text, then time). */
function expectedLabels(filter: (device: string, offset: number) => boolean = () => true): string[] {
  return [...DEVICES].sort().flatMap((d) => OFFSETS.filter((o) => filter(d, o)).map((o) => `${d}@${o / HOUR}`));
}

beforeAll(async () => {
  mapper = openMapper([E.SinceEvent]);
  await mapper.sync();
  events = mapper.getRepository(E.SinceEvent);
  await events.saveMany(
    DEVICES.flatMap((deviceId) =>
      OFFSETS.map((o) => Object.assign(new E.SinceEvent(), { deviceId, ts: at(o), value: o / HOUR })),
    ),
  );
});

afterAll(() => closeMapper(mapper, [E.tables.since]));

describe('forward-only salt migration (since)', () => {
  it('stores rows before the cutoff unsalted and rows at or after it salted', async () => {
    const keys = new Set(await rawKeys(mapper, E.tables.since));
    expect(keys.size).toBe(DEVICES.length * OFFSETS.length);
    for (const d of DEVICES) {
      for (const o of OFFSETS) {
        const logical = `${d}#${String(CUT + o).padStart(13, '0')}`;
        if (o < 0) {
          expect(keys.has(logical), logical).toBe(true);
        } else {
          const bucket = BigInt(`0x${createHash('md5').update(logical, 'utf8').digest('hex')}`) % 4n;
          const physical = `${String(bucket).padStart(2, '0')}#${logical}`;
          expect(keys.has(physical), physical).toBe(true);
        }
      }
    }
  });

  it('whole-table scan returns both layouts merged in logical key order, no duplicates', async () => {
    const rows = await all();
    expect(rows.map(label)).toEqual(expectedLabels());
    expect(rows.map((r) => r.value)).toEqual(expectedLabels().map((l) => Number(l.split('@')[1])));
  });

  it('prefix scan returns both layouts of that device only (d1 never returns d10)', async () => {
    const rows = await all({ where: { deviceId: 'd1' } });
    expect(rows.map(label)).toEqual(expectedLabels((d) => d === 'd1'));
  });

  it('a range across the cutoff reads both layouts', async () => {
    const rows = await all({ where: { deviceId: 'd2', ts: range({ gte: at(-3 * HOUR), lt: at(3 * HOUR) }) } });
    expect(rows.map(label)).toEqual(['d2@-3', 'd2@-2', 'd2@-1', 'd2@0', 'd2@1', 'd2@2']);
    expect(
      events.planScan({ where: { deviceId: 'd2', ts: range({ gte: at(-3 * HOUR), lt: at(3 * HOUR) }) } }).sources,
    ).toHaveLength(5);
  });

  it('planScan prunes the salted buckets for a range entirely before the cutoff', async () => {
    for (const ts of [
      range({ lt: SINCE_CUTOFF }),
      range({ lte: at(-1) }),
      range({ gte: at(-5 * HOUR), lt: at(-2 * HOUR) }),
    ]) {
      const plan = events.planScan({ where: { deviceId: 'd1', ts } });
      expect(plan.sources.map((s) => s.layout)).toEqual(['unsalted']);
    }
    const rows = await all({ where: { deviceId: 'd1', ts: range({ lt: SINCE_CUTOFF }) } });
    expect(rows.map(label)).toEqual(expectedLabels((d, o) => d === 'd1' && o < 0));
  });

  it('planScan prunes the unsalted layout for a range entirely at or after the cutoff', async () => {
    for (const ts of [
      range({ gte: SINCE_CUTOFF }),
      range({ gt: at(-1) }),
      range({ gte: at(2 * HOUR), lt: at(5 * HOUR) }),
    ]) {
      const plan = events.planScan({ where: { deviceId: 'd1', ts } });
      expect(plan.sources.map((s) => s.layout)).toEqual(['salted', 'salted', 'salted', 'salted']);
    }
    const rows = await all({ where: { deviceId: 'd1', ts: range({ gte: SINCE_CUTOFF }) } });
    expect(rows.map(label)).toEqual(expectedLabels((d, o) => d === 'd1' && o >= 0));
    expect((await all({ where: { deviceId: 'd10', ts: range({ gt: at(-1), lt: at(2 * HOUR) }) } })).map(label)).toEqual(
      ['d10@0', 'd10@1'],
    );
  });

  it('point reads find rows of both layouts', async () => {
    expect((await events.findOne({ deviceId: 'd10', ts: at(-HOUR) }))!.value).toBe(-1);
    expect((await events.findOne({ deviceId: 'd10', ts: SINCE_CUTOFF }))!.value).toBe(0);
    const many = await events.findMany([
      { deviceId: 'd2', ts: at(5 * HOUR) },
      { deviceId: 'd2', ts: at(-5 * HOUR) },
      { deviceId: 'd2', ts: at(99 * HOUR) },
    ]);
    expect(many.map((e) => e?.value)).toEqual([5, -5, undefined]);
  });

  it("order: 'none' and limit also see both layouts exactly once", async () => {
    const loose = await all({ order: 'none' });
    expect(loose.map(label).sort()).toEqual(expectedLabels().sort());
    expect((await all({ limit: 12 })).map(label)).toEqual(expectedLabels().slice(0, 12));
  });
});
