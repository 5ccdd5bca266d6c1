import { Bigtable } from '@google-cloud/bigtable';
import type { BigtableOptions, Instance, Table } from '@google-cloud/bigtable';
import type { ActualFamily } from './driver.js';
import type { BigtableAdminDriver } from './admin-ops.js';
import type { GcRule } from '../schema/gc-rule-types.js';
import { ValidationError } from '../errors/validation-error.js';
import { checkEmulatorHost } from './emulator-host.js';
import {
  addFamily,
  callClient,
  createTableWithFamilies,
  dropFamily,
  dropTable,
  listTableIds,
  readFamilies,
  replaceFamilyGc,
} from './admin-ops.js';

/**
 * How {@link createGoogleCloudDriver} gets its client: an existing `Bigtable`
 * (never closed by the driver), client options, or a loopback emulator address.
 *
 * @example
 * ```ts
 * const options: GoogleCloudDriverOptions = { emulatorHost: '127.0.0.1:8086', instance: 'test' };
 * ```
 */
export type GoogleCloudDriverOptions =
  | { bigtable: Bigtable; instance: string }
  | { clientOptions: BigtableOptions; instance: string }
  | { emulatorHost: string; instance: string; projectId?: string };

/**
 * The Bigtable driver on top of `@google-cloud/bigtable` 7.x: the only module
 * that loads the client. Client errors become `DriverError`s with the gRPC code.
 * Implements the table-admin methods; the data-plane methods of
 * `BigtableDriver` are added beside them.
 *
 * @example
 * ```ts
 * const driver = createGoogleCloudDriver({ emulatorHost: '127.0.0.1:8086', instance: 'test' });
 * await driver.listTables();
 * await driver.close();
 * ```
 */
export class GoogleCloudDriver implements BigtableAdminDriver {
  /** The underlying client. */
  readonly bigtable: Bigtable;
  /** Bigtable instance id. */
  readonly instanceId: string;
  readonly #instance: Instance;
  readonly #ownsClient: boolean;

  constructor(bigtable: Bigtable, instanceId: string, ownsClient: boolean) {
    this.bigtable = bigtable;
    this.instanceId = instanceId;
    this.#instance = bigtable.instance(instanceId);
    this.#ownsClient = ownsClient;
  }

  /**
   * The client's handle on one table of the instance.
   * @internal
   * @example
   * ```ts
   * const table = driver.table('readings');
   * ```
   */
  table(id: string): Table {
    return this.#instance.table(id);
  }

  listTables(): Promise<string[]> {
    return listTableIds(this.#instance);
  }

  getFamilies(table: string): Promise<ActualFamily[] | undefined> {
    return readFamilies(this.#instance, table);
  }

  createTable(table: string, families: readonly ActualFamily[]): Promise<void> {
    return createTableWithFamilies(this.#instance, table, families);
  }

  createFamily(table: string, family: ActualFamily): Promise<void> {
    return addFamily(this.#instance, table, family);
  }

  setFamilyGc(table: string, family: string, gc: GcRule | undefined): Promise<void> {
    return replaceFamilyGc(this.#instance, table, family, gc);
  }

  deleteFamily(table: string, family: string): Promise<void> {
    return dropFamily(this.#instance, table, family);
  }

  deleteTable(table: string): Promise<void> {
    return dropTable(this.#instance, table);
  }

  async close(): Promise<void> {
    if (this.#ownsClient) await callClient('close', () => this.bigtable.close());
  }
}

/**
 * Creates the driver. An emulator address must be loopback (`ValidationError`
 * otherwise); the emulator client skips the metadata-server probe and metrics.
 *
 * @example
 * ```ts
 * const driver = createGoogleCloudDriver({ emulatorHost: process.env.BIGTABLE_EMULATOR_HOST!, instance: 'test' });
 * ```
 */
export function createGoogleCloudDriver(options: GoogleCloudDriverOptions): GoogleCloudDriver {
  const instance = (options as { instance?: unknown } | null)?.instance;
  if (typeof instance !== 'string' || instance === '') {
    throw new ValidationError('createGoogleCloudDriver: `instance` must be a non-empty string. Fix: pass the Bigtable instance id.', { instance });
  }
  if ('bigtable' in options) return new GoogleCloudDriver(options.bigtable, instance, false);
  if ('clientOptions' in options) return new GoogleCloudDriver(new Bigtable(options.clientOptions), instance, true);
  if ('emulatorHost' in options) {
    const client = new Bigtable({
      projectId: options.projectId ?? 'emulator-project',
      apiEndpoint: checkEmulatorHost(options.emulatorHost),
      metricsEnabled: false,
      universeDomain: 'googleapis.com',
    });
    return new GoogleCloudDriver(client, instance, true);
  }
  throw new ValidationError('createGoogleCloudDriver: pass one of `bigtable`, `clientOptions` or `emulatorHost`.', {});
}
