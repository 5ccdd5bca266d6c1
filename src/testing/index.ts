/**
 * `bigtable-mapper/testing`: find, start and connect to the Cloud Bigtable
 * emulator (`cbtemulator`) from tests, examples and benchmarks.
 *
 * @example
 * ```ts
 * import { useEmulator, emulatorClientOptions, uniqueTableId } from 'bigtable-mapper/testing';
 * const emulator = await useEmulator();
 * const bigtable = new Bigtable(emulatorClientOptions(emulator.host));
 * ```
 *
 * @module bigtable-mapper/testing
 */
export { findEmulatorBinary } from './emulator.js';
export { freePort } from './emulator.js';
export { startEmulator, type EmulatorHandle, type StartEmulatorOptions } from './emulator.js';
export { emulatorClientOptions } from './emulator.js';
export { uniqueTableId } from './unique-table-id.js';
export { useEmulator, type UsedEmulator } from './emulator.js';
export { EmulatorError } from '../errors/errors.js';
