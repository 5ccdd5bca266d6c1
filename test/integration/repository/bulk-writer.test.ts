import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstValueFrom, from, toArray } from 'rxjs';
import { OperationAbortedError, type Repository, type WriteOutcome } from '../../../src/index.js';
import { closeMapper, makeEntities, openMapper, rawKeys } from '../../fixtures/entities.js';

/**
 * The BulkWriter's lifecycle on the emulator: adds under back-pressure, the
 * outcomes of every entity, flush, close, the RxJS operator, and
 * `mapper.close()` while adds wait.
 */

const E = makeEntities('bwriter');
type Item = InstanceType<typeof E.Item>;

const mapper = openMapper([E.Item]);
let items: Repository<Item>;

beforeAll(async () => {
  await mapper.sync();
  items = mapper.getRepository(E.Item);
});

afterAll(() => closeMapper(mapper, [E.tables.items]));

const id = (prefix: string, i: number): string => `${prefix}-${String(i).padStart(5, '0')}`;
const item = (prefix: string, i: number): Item =>
  Object.assign(new E.Item(), { id: id(prefix, i), n: i, label: `label ${i}` });

async function stored(prefix: string): Promise<string[]> {
  return (await rawKeys(mapper, E.tables.items)).filter((k) => k.startsWith(`${prefix}-`)).sort();
}

describe('BulkWriter on the emulator', () => {
  it('writes 2,000 entities under a small cap, reports each once, and close() returns the totals', async () => {
    const writer = items.bulkWriter({ batchSize: 100, maxOutstandingRows: 300, concurrency: 2 });
    const outcomes = firstValueFrom(writer.outcomes.pipe(toArray()));
    let maxPending = 0;
    for (let i = 0; i < 2_000; i++) {
      await writer.add(item('life', i));
      maxPending = Math.max(maxPending, writer.totals.pending);
    }
    const totals = await writer.close();
    expect(totals).toEqual({ accepted: 2_000, persisted: 2_000, failed: 0, unknown: 0, pending: 0 });
    expect(maxPending).toBeLessThanOrEqual(300);
    const seen = await outcomes;
    expect(new Set(seen.map((o) => o.index)).size).toBe(2_000);
    expect(seen.every((o) => o.status === 'persisted')).toBe(true);
    expect(await stored('life')).toEqual(Array.from({ length: 2_000 }, (_, i) => id('life', i)));
    await expect(writer.add(item('life', 9_999))).rejects.toBeInstanceOf(OperationAbortedError);
  });

  it('writes string values as given: empty, non-ASCII, astral and long ones read back equal', async () => {
    const labels = ['', 'été', '🌍 and more', 'é'.repeat(40), 'x'.repeat(5_000), 'plain'];
    const writer = items.bulkWriter();
    for (const [i, label] of labels.entries()) await writer.add(Object.assign(item('text', i), { label }));
    expect((await writer.close()).persisted).toBe(labels.length);
    const read = await items.findMany(labels.map((_, i) => ({ id: id('text', i) })));
    expect(read.map((r) => r?.label)).toEqual(labels);
  });

  it('flush() writes what was added so far; the writer stays open', async () => {
    const writer = items.bulkWriter({ flushIntervalMs: 0 });
    const first = await writer.add(item('flush', 0));
    await writer.add(item('flush', 1));
    await writer.flush();
    expect((await first.outcome).status).toBe('persisted');
    expect(await stored('flush')).toEqual([id('flush', 0), id('flush', 1)]);
    await writer.add(item('flush', 2));
    expect((await writer.close()).persisted).toBe(3);
  });

  it('writeTo: an Observable of entities becomes an Observable of their outcomes', async () => {
    const outcomes: WriteOutcome<Item>[] = await firstValueFrom(
      from(Array.from({ length: 250 }, (_, i) => item('rx', i))).pipe(items.writeTo({ batchSize: 100 }), toArray()),
    );
    expect(outcomes).toHaveLength(250);
    expect(outcomes.every((o) => o.status === 'persisted')).toBe(true);
    expect(await stored('rx')).toHaveLength(250);
  });

  it('mapper.close() while adds wait: they reject, the writer settles with a full account, nothing is lost silently', async () => {
    const other = openMapper([E.Item]);
    const repo = other.getRepository(E.Item);
    const writer = repo.bulkWriter({ batchSize: 50, maxOutstandingRows: 100, concurrency: 1 });
    const handles: Promise<WriteOutcome<Item>>[] = [];
    let refused: unknown;
    const producer = (async () => {
      for (let i = 0; i < 5_000; i++) {
        try {
          handles.push((await writer.add(item('mclose', i))).outcome);
        } catch (err) {
          refused = err;
          return;
        }
        if (i === 400) void other.close();
      }
    })();
    await producer;
    expect(refused).toBeInstanceOf(OperationAbortedError);
    const totals = await writer.close();
    expect(totals.pending).toBe(0);
    expect(totals.persisted + totals.failed + totals.unknown).toBe(totals.accepted);
    const all = await Promise.all(handles);
    const persisted = all.filter((o) => o.status === 'persisted').map((o) => o.rowKey);
    const table = new Set(await stored('mclose'));
    // Every persisted row is there; a row there and not persisted was cut in flight (failed with code 1).
    expect(persisted.filter((k) => !table.has(k))).toEqual([]);
    const extra = all.filter((o) => o.status !== 'persisted' && table.has(o.rowKey));
    expect(extra.every((o) => o.status === 'failed' && o.grpcCode === 1)).toBe(true);
  });
});
