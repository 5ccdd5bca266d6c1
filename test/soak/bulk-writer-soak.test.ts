import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, type Repository } from '../../src/index.js';
import { emulatorHost, testInstanceId } from '../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { closeMapper, makeEntities, openMapper, rawTable } from '../fixtures/entities.js';

/**
 * The BulkWriter's 1,000,000-row run through the fault proxy (the soak tier;
 * `npm test` runs the same faults on 3,000 rows in
 * test/integration/faults/bulk-writer-faults.test.ts): connection resets and
 * data stalls every 100,000 rows, and at the end every entity has exactly one
 * outcome and the table holds exactly the persisted ones (every mutation is
 * idempotent, so each is sent again until it lands).
 */

const E = makeEntities('bwsoak');
type Item = InstanceType<typeof E.Item>;

/** 1,000,000 in the soak tier; `BULK_WRITER_SOAK_ROWS` sets another count (a quick local run). */
const ROWS = Number(process.env['BULK_WRITER_SOAK_ROWS'] ?? 1_000_000);
/** A fault every tenth of the rows. */
const EVERY = Math.max(1, Math.floor(ROWS / 10));

let proxy: FaultProxy;
let direct: BigtableMapper;
let proxied: BigtableMapper;
let items: Repository<Item>;

beforeAll(async () => {
  proxy = await startFaultProxy(emulatorHost());
  direct = openMapper([E.Item]);
  await direct.sync();
  proxied = new BigtableMapper({ emulatorHost: proxy.host, instance: testInstanceId, entities: [E.Item] });
  items = proxied.getRepository(E.Item);
}, 60_000);

afterAll(async () => {
  await proxied.close();
  await closeMapper(direct, [E.tables.items]);
  await proxy.close();
}, 120_000);

/** Rows of the table, counted through the raw client. */
async function countRows(): Promise<number> {
  let n = 0;
  const stream = rawTable(direct, E.tables.items).createReadStream({
    decode: false,
    filter: [{ row: { cellLimit: 1 } }, { value: { strip: true } }],
  });
  for await (const _row of stream) n += 1;
  return n;
}

describe('BulkWriter soak', () => {
  it(`writes ${ROWS.toLocaleString('en-US')} rows through resets and stalls; every outcome exact, the table holds exactly the persisted rows`, async () => {
    const writer = items.bulkWriter({ attemptTimeoutMs: 2_000, timeoutMs: 120_000 });
    const seen = new Uint8Array(ROWS);
    const notPersisted: string[] = [];
    let duplicates = 0;
    writer.outcomes.subscribe((o) => {
      if (seen[o.index] === 1) duplicates += 1;
      seen[o.index] = 1;
      if (o.status !== 'persisted') notPersisted.push(`${o.rowKey}: ${o.status} ${o.message}`);
    });
    for (let i = 0; i < ROWS; i++) {
      if (i > 0 && i % EVERY === 0) {
        if ((i / EVERY) % 2 === 1) proxy.faultAfter({ bytes: 50_000, fault: 'reset', direction: 'toServer' });
        else proxy.stallData({ afterBytes: 20_000, forMs: 3_000, direction: 'toClient' });
      }
      await writer.add(Object.assign(new E.Item(), { id: `soak-${String(i).padStart(7, '0')}`, n: i, label: `${i}` }));
    }
    const totals = await writer.close();
    proxy.pass();
    expect(duplicates).toBe(0);
    expect(seen.every((s) => s === 1)).toBe(true);
    expect(totals).toEqual({ accepted: ROWS, persisted: ROWS, failed: 0, unknown: 0, pending: 0 });
    expect(notPersisted.slice(0, 10)).toEqual([]);
    expect(await countRows()).toBe(ROWS);
  }, 900_000);
});
