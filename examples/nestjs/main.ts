/**
 * NestJS example: boots `AppModule` on a loopback port against a Bigtable
 * emulator (the one in `BIGTABLE_EMULATOR_HOST`, or a fresh one), prints a few
 * requests' results, then shuts down: the application (closing the mapper),
 * then the emulator it started.
 *
 * @example
 * ```ts
 * // npm run example:nestjs
 * ```
 */
import { NestFactory } from '@nestjs/core';
import { useEmulator } from '../../src/testing/index.js';
import { AppModule } from './app.module.js';
import { runDemoRequests } from './demo-requests.js';

const emulator = await useEmulator();
try {
  const app = await NestFactory.create(AppModule.forRoot({ emulatorHost: emulator.host }), {
    logger: ['error', 'warn', 'log'],
  });
  try {
    await app.listen(0, '127.0.0.1');
    const base = await app.getUrl();
    console.log(`listening on ${base}`);
    await runDemoRequests(base);
  } finally {
    await app.close();
  }
} finally {
  await emulator.stop();
}
