/**
 * Express example: serves the readings API on a loopback port against a
 * Bigtable emulator (the one in `BIGTABLE_EMULATOR_HOST`, or a fresh one),
 * prints a few requests' results, then shuts down: the server, the mapper,
 * then the emulator it started.
 *
 * @example
 * ```ts
 * // npm run example:express
 * ```
 */
import { BigtableMapper } from '../../src/index.js';
import { useEmulator } from '../../src/testing/index.js';
import { runDemoRequests } from './demo-requests.js';
import { DEFAULT_READINGS_TABLE, readingEntity } from './reading.entity.js';
import { createReadingsApp } from './readings-app.js';
import { listen } from './server.js';

const emulator = await useEmulator();
try {
  const mapper = new BigtableMapper({ emulatorHost: emulator.host, instance: 'examples' });
  try {
    const readings = mapper.getRepository(readingEntity(DEFAULT_READINGS_TABLE));
    const { changes } = await mapper.sync();
    for (const change of changes) console.log(`sync: ${change.description}`);
    const app = createReadingsApp(readings, {
      onExportEnd: (s) => console.log(`export ended: ${s.rows} rows${s.aborted ? ', client disconnected' : ''}`),
      ready: (signal) => mapper.health({ signal, timeoutMs: 2_000 }),
    });
    const server = await listen(app);
    console.log(`listening on ${server.url}`);
    try {
      await runDemoRequests(server.url);
    } finally {
      await server.close();
    }
  } finally {
    await mapper.close();
  }
} finally {
  await emulator.stop();
}
