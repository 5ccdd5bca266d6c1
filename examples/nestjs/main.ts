/**
 * NestJS example: starts OpenTelemetry (console exporters, `telemetry.ts`),
 * boots `AppModule` on a loopback port against a Bigtable emulator (the one in
 * `BIGTABLE_EMULATOR_HOST`, or a fresh one), prints a few requests' results,
 * then shuts down: the application (closing the mapper), the emulator it
 * started, and OpenTelemetry, which prints the spans and metrics it has left.
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
import { startTelemetry } from './telemetry.js';

// Before Nest creates the mapper: its `telemetry: true` writes to these providers.
const telemetry = startTelemetry();
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
  await telemetry.shutdown();
}
