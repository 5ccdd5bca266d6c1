import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper } from '../../../src/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { abandonedScanEntity } from '../../support/abandoned-scan-child.js';

const table = uniqueTableId('abandon');
const Row = abandonedScanEntity(table);
let mapper: BigtableMapper;

beforeAll(async () => {
  mapper = new BigtableMapper({ emulatorHost: emulatorHost(), instance: testInstanceId, entities: [Row] });
  await mapper.sync();
  // 2 MB per bucket: more than a read buffers ahead (READ_BUFFER_LIMITS) plus what HTTP/2 holds in flight, so every bucket read is still open when the child closes.
  const payload = 'x'.repeat(2_000);
  await mapper
    .getRepository(Row)
    .saveMany(
      Array.from({ length: 8_000 }, (_, i) =>
        Object.assign(new Row(), { id: `r${String(i).padStart(5, '0')}`, payload }),
      ),
    );
}, 60_000);

afterAll(async () => {
  await mapper.driver.deleteTable({ table }).catch(() => undefined);
  await mapper.close();
});

/**
 * Runs the child; resolves how it ended, or `exited: false` if it is still
 * alive `aliveForMs` after it printed its line (it is then killed). Startup
 * has its own, larger bound: only the time after `close()` is the subject.
 */
function runChild(aliveForMs: number): Promise<{ exited: boolean; code: number | null; stdout: string }> {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/abandoned-scan-child.ts', emulatorHost(), testInstanceId, table],
    {
      cwd: root,
      env: { ...process.env, METADATA_SERVER_DETECTION: 'none' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  return new Promise((resolve) => {
    const giveUp = (): void => {
      child.kill('SIGKILL');
      resolve({ exited: false, code: null, stdout });
    };
    let timer = setTimeout(giveUp, 40_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      clearTimeout(timer);
      timer = setTimeout(giveUp, aliveForMs);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ exited: true, code, stdout });
    });
  });
}

describe('a process with an abandoned scan iterator', () => {
  it('exits on its own after mapper.close(): the 8 bucket reads of an ordered salted scan are cancelled', async () => {
    expect(await runChild(10_000)).toEqual({ exited: true, code: 0, stdout: `${JSON.stringify({ row: true })}\n` });
  }, 60_000);
});
