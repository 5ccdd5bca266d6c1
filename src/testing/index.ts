/**
 * `bigtable-mapper/testing`: an in-memory Bigtable for unit tests
 * (`InMemoryBigtable`, no emulator needed), and helpers that find, start and
 * connect to the Cloud Bigtable emulator (`cbtemulator`) from tests, examples
 * and benchmarks.
 *
 * @example
 * ```ts
 * import { InMemoryBigtable, useEmulator, emulatorClientOptions } from 'bigtable-mapper/testing';
 * const mapper = new BigtableMapper({ driver: new InMemoryBigtable(), entities: [Order] });
 * const emulator = await useEmulator();
 * const bigtable = new Bigtable(emulatorClientOptions(emulator.host));
 * ```
 *
 * @module bigtable-mapper/testing
 */
export { InMemoryBigtable, type InMemoryBigtableOptions } from './in-memory-driver.js';
export type { RecordedCall, RecordedCallOf, RecordedRead, DriverMethod } from './recorded-call.js';
export { GrpcCode } from './grpc-code.js';
export { findEmulatorBinary } from './emulator.js';
export { freePort } from './emulator.js';
export { startEmulator, type EmulatorHandle, type StartEmulatorOptions } from './emulator.js';
export { emulatorClientOptions } from './emulator.js';
export { uniqueTableId } from './unique-table-id.js';
export { useEmulator, type UsedEmulator } from './emulator.js';
export { EmulatorError } from '../errors/errors.js';
