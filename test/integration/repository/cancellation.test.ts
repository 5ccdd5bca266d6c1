import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigtableMapper, Repository } from '../../../src/index.js';
import { closeMapper, makeEntities, openMapper, waitFor } from '../../fixtures/entities.js';

const E = makeEntities('cancel');
type SaltedEvent = InstanceType<typeof E.SaltedEvent>;

let mapper: BigtableMapper;
let events: Repository<SaltedEvent>;
const ROWS = 4_000;

/** Read streams the driver has open (the GoogleCloudDriver's counter). */
function activeReads(): number {
  return (mapper.driver as unknown as { activeReads: number }).activeReads;
}

/** Liveness, not speed: every read stream must be closed within ~2 s. */
function allReadsClosed(): Promise<void> {
  return waitFor(() => activeReads() === 0, 2_000, `read streams still open: ${activeReads()}`);
}

beforeAll(async () => {
  mapper = openMapper([E.SaltedEvent]);
  await mapper.sync();
  events = mapper.getRepository(E.SaltedEvent);
  const payload = 'x'.repeat(200);
  await events.saveMany(
    Array.from({ length: ROWS }, (_, i) =>
      Object.assign(new E.SaltedEvent(), { userId: `u${i % 50}`, seq: i, payload, n: i }),
    ),
  );
});

afterAll(() => closeMapper(mapper, [E.tables.salted]));

describe('cancellation leaves no open read stream', () => {
  it('the driver counts open reads (sanity: 0 at rest, 0 after a completed scan)', async () => {
    expect(typeof activeReads()).toBe('number');
    expect(activeReads()).toBe(0);
    const rows = await lastValueFrom(events.scan({ where: { userId: 'u1' } }).pipe(toArray()));
    expect(rows).toHaveLength(ROWS / 50);
    await allReadsClosed();
  });

  it('scan(...).pipe(take(1)) over 8 buckets', async () => {
    const first = await firstValueFrom(events.scan({}).pipe(take(1)));
    expect(first).toBeInstanceOf(E.SaltedEvent);
    expect(first.userId).toBe('u0');
    await allReadsClosed();
  });

  it('take(5) of an unordered scan', async () => {
    const some = await lastValueFrom(events.scan({ order: 'none' }).pipe(take(5), toArray()));
    expect(some).toHaveLength(5);
    await allReadsClosed();
  });

  it('breaking out of for await after the first row', async () => {
    let seen = 0;
    let openWhileReading = 0;
    for await (const e of events.iterate({})) {
      expect(e.payload).toHaveLength(200);
      seen++;
      openWhileReading = activeReads();
      break;
    }
    expect(seen).toBe(1);
    // The ordered merge had its bucket reads open while the consumer held a row.
    expect(openWhileReading).toBeGreaterThan(0);
    await allReadsClosed();
  });

  it('a consumer that throws inside for await', async () => {
    const boom = new Error('consumer failed');
    await expect(
      (async () => {
        for await (const e of events.iterate({ order: 'none' })) {
          if (e.n !== undefined) throw boom;
        }
      })(),
    ).rejects.toBe(boom);
    await allReadsClosed();
  });

  it('unsubscribing mid-stream', async () => {
    const received: SaltedEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      const subscription = events.scan({}).subscribe({
        next(e) {
          received.push(e);
          if (received.length === 100) {
            subscription.unsubscribe();
            resolve();
          }
        },
        error: reject,
      });
    });
    expect(received).toHaveLength(100);
    await allReadsClosed();
  });

  it('after all those cancellations a full scan still reads every row', async () => {
    let count = 0;
    for await (const e of events.iterate({ order: 'none' })) if (e.payload !== undefined) count++;
    expect(count).toBe(ROWS);
    await allReadsClosed();
  });
});
