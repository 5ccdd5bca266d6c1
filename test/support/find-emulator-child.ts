import { findEmulatorBinary } from '../../src/testing/index.js';

/**
 * Child process for the find-emulator tests (run with a controlled `PATH`):
 * prints `{"binary":…}` or `{"error":…,"name":…}` as one JSON line.
 *
 * @example
 * ```ts
 * execFile(process.execPath, ['--import', 'tsx', 'test/support/find-emulator-child.ts'], { env: { PATH: emptyDir } });
 * ```
 */
try {
  process.stdout.write(`${JSON.stringify({ binary: await findEmulatorBinary() })}\n`);
} catch (error) {
  const { name, message } = error as Error;
  process.stdout.write(`${JSON.stringify({ error: message, name })}\n`);
}
