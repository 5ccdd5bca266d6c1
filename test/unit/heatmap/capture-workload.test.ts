import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt, ValidationError } from '../../../src/index.js';
import { captureWorkload } from '../../../src/tools.js';
import { CAPTURED_KEY_BYTES } from '../../../src/heatmap/capture-workload.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'capture_events' })
@Salt({ buckets: 4 })
@Family('d')
class Event {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint', width: 4 }) n!: number;
  @Column({ family: 'd', type: 'string' }) body?: string;
}

function event(userId: string, n: number): Event {
  return Object.assign(new Event(), { userId, n, body: 'x' });
}

/** A clock that moves one second per call. */
function ticking(): () => number {
  let now = Date.UTC(2026, 0, 1);
  return () => (now += 1000);
}

describe('captureWorkload', () => {
  it('records the keys each write mutated and each read asked for, and passes every call on', async () => {
    const inner = new FakeDriver();
    const { driver, capture } = captureWorkload(inner, { now: ticking() });
    const mapper = new BigtableMapper({ driver, entities: [Event] });
    const repo = mapper.getRepository(Event);
    await repo.save(event('a', 1));
    await repo.saveMany([event('b', 1), event('b', 2), event('c', 1)]);
    await repo.findOne({ userId: 'a', n: 1 });
    const scanned: Event[] = [];
    for await (const e of repo.iterate({ where: { userId: 'b' } })) scanned.push(e);
    expect(scanned).toHaveLength(2);
    const ops = capture.entries();
    expect(ops.filter((op) => op.kind === 'write')).toHaveLength(4);
    expect(ops.filter((op) => op.kind === 'read')).toHaveLength(1);
    // The salt hashes the whole key, so a scan of one user reads every bucket.
    expect(ops.filter((op) => op.kind === 'scan')).toHaveLength(4);
    expect(ops.filter((op) => op.kind === 'write').every((op) => op.table === 'capture_events')).toBe(true);
    expect(inner.callsOf('mutateRow')).toHaveLength(1);
    expect(inner.callsOf('mutateRows').flatMap((c) => c.mutations)).toHaveLength(3);
    expect(ops[0]?.key.toString()).toMatch(/^0\d#a#0001$/);
    await mapper.close();
  });

  it('keeps at most maxEntries operations, dropping the oldest', async () => {
    const { driver, capture } = captureWorkload(new FakeDriver(), { maxEntries: 3, now: ticking() });
    const repo = new BigtableMapper({ driver }).getRepository(Event);
    for (let n = 0; n < 5; n++) await repo.save(event('u', n));
    expect(capture.size).toBe(3);
    expect(capture.dropped).toBe(2);
    expect(capture.entries().map((op) => op.key.toString().slice(-4))).toEqual(['0002', '0003', '0004']);
    capture.clear();
    expect(capture.entries()).toEqual([]);
    expect(capture.dropped).toBe(0);
  });

  it('keeps only the first bytes of a long key', async () => {
    const { driver, capture } = captureWorkload(new FakeDriver());
    await new BigtableMapper({ driver }).getRepository(Event).save(event('u'.repeat(1000), 1));
    expect(capture.entries()[0]?.key.length).toBe(CAPTURED_KEY_BYTES);
    expect(CAPTURED_KEY_BYTES).toBe(256);
  });

  it('turns the capture into a heatmap: writes per key range per time column, a scan in every range it covers', async () => {
    const { driver, capture } = captureWorkload(new FakeDriver(), { now: ticking() });
    const repo = new BigtableMapper({ driver }).getRepository(Event);
    for (let n = 0; n < 30; n++) await repo.save(event(n % 3 === 0 ? 'hot' : `u${n}`, n));
    for await (const _ of repo.iterate({})) void _;
    const writes = capture.toHeatmap({ entity: Event, kinds: 'writes', timeColumns: 3, keyRanges: 64 });
    expect(writes.timeLabels).toHaveLength(3);
    expect(writes.counts.flat().reduce((a, b) => a + b, 0)).toBe(30);
    expect(writes.keyRanges.every((r) => r.bucket !== undefined)).toBe(true);
    // The salt hashes the whole key: the hot user's rows are in several buckets, each a range labelled by it.
    const hot = writes.keyRanges.flatMap((r, i) => (r.label.endsWith('#hot') ? [i] : []));
    expect(hot.length).toBeGreaterThan(1);
    const hotWrites = writes.counts.flatMap((column) => hot.map((r) => column[r] ?? 0));
    expect(hotWrites.reduce((a, b) => a + b, 0)).toBe(10);
    const reads = capture.toHeatmap({ entity: Event, kinds: 'reads', keyRanges: 64 });
    // One scan per salt bucket; each counts once in each range of its bucket.
    const perRange = reads.keyRanges.map((_, r) => reads.counts.reduce((sum, column) => sum + (column[r] ?? 0), 0));
    expect(perRange.every((count) => count === 1)).toBe(true);
    expect(reads.unit).toBe('reads');
  });

  it('rejects a bound out of range', () => {
    expect(() => captureWorkload(new FakeDriver(), { maxEntries: 0 })).toThrow(ValidationError);
    expect(() => captureWorkload(new FakeDriver()).capture.toHeatmap({ keyRanges: 0 })).toThrow(
      /keyRanges must be an integer/,
    );
  });
});
