import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper } from '../../../src/index.js';
import { emulatorHost } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { rowsOf } from '../../support/rows-of.js';
import { JobVisit } from '../cli/jobs.entities.js';
import { cli } from '../cli/run-cli.js';

/**
 * `import` through the fault proxy: a connection reset while the records are
 * being written. Records carry their @CellTimestamp, so a write sent again
 * (by the retry engine, or by running the import again) writes the same
 * cells: the target ends up equal to the source, each record once, and a
 * second run adds no version.
 */

const instance = `cli-import-faults-${randomUUID().slice(0, 8)}`;
const entities = ['-e', 'test/integration/cli/jobs.entities.ts', '--instance', instance];
const dir = mkdtempSync(join(tmpdir(), 'cli-import-faults-'));
const ROWS = 300;
let proxy: FaultProxy;
let mapper: BigtableMapper;

async function cells(table: string): Promise<string[]> {
  const out: string[] = [];
  for await (const row of rowsOf(mapper.driver.readRows({ table })))
    for (const [family, columns] of Object.entries(row.cells))
      for (const [qualifier, versions] of Object.entries(columns))
        for (const c of versions)
          out.push(`${row.key.toString()} ${family}:${qualifier}@${c.timestampMicros}=${c.value.toString('base64')}`);
  return out;
}

beforeAll(async () => {
  proxy = await startFaultProxy(emulatorHost());
  mapper = new BigtableMapper({ emulatorHost: emulatorHost(), instance, entities: [JobVisit] });
  await mapper.sync();
  const copy = new BigtableMapper({
    emulatorHost: emulatorHost(),
    instance,
    entities: [JobVisit],
    tablePrefix: 'copy_',
  });
  await copy.sync();
  await copy.close();
  await mapper.getRepository(JobVisit).saveMany(
    Array.from({ length: ROWS }, (_, i) =>
      Object.assign(new JobVisit(), {
        site: `s${i % 3}`,
        seq: i,
        page: `/page/${'x'.repeat(200)}/${i}`,
        at: new Date(Date.UTC(2026, 1, 1) + i),
      }),
    ),
  );
});

afterAll(async () => {
  await mapper.close();
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('import under connection resets', () => {
  it('writes every record exactly once: retried and re-run writes land on the same cells', async () => {
    const file = join(dir, 'visits.ndjson');
    const exported = await cli([...entities, '--emulator-host', emulatorHost(), 'export', 'JobVisit', '--out', file]);
    expect(exported.code).toBe(0);

    proxy.faultAfter({ bytes: 30_000, fault: 'reset', direction: 'toServer' });
    const args = [...entities, '--emulator-host', proxy.host, '--table-prefix', 'copy_', '--json'];
    const first = await cli([...args, 'import', 'JobVisit', file, '--batch-size', '100']);
    // The reset cut a MutateRows call: the retry engine sends its idempotent entries again.
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ read: ROWS, written: ROWS, rejected: 0 });
    proxy.pass();
    expect(proxy.connectionsOpened).toBeGreaterThan(1);
    expect(await cells('copy_cli-jobs-visits')).toEqual(await cells('cli-jobs-visits'));
    // Running it again writes the same cells: no new version appears.
    expect((await cli([...args, 'import', 'JobVisit', file])).code).toBe(0);
    expect(await cells('copy_cli-jobs-visits')).toEqual(await cells('cli-jobs-visits'));
  });
});
