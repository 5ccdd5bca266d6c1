import { startEmulator } from '../../src/testing/index.js';

/**
 * Child process for the orphan tests: starts an emulator, prints
 * `{"pid":…,"port":…}` on one line, then, depending on argv[2]:
 * `hang` (default) keeps running until killed, `exit` calls `process.exit(0)`,
 * `return` lets the event loop drain.
 *
 * @example
 * ```ts
 * spawn(process.execPath, ['--import', 'tsx', 'test/support/orphan-emulator-child.ts', 'hang']);
 * ```
 */
const mode = process.argv[2] ?? 'hang';
const emulator = await startEmulator();
process.stdout.write(`${JSON.stringify({ pid: emulator.pid, port: emulator.port })}\n`);
if (mode === 'hang') setInterval(() => undefined, 60_000);
else if (mode === 'exit') process.exit(0);
