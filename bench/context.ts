import { Bigtable, type Instance, type Table } from '@google-cloud/bigtable';
import { BigtableMapper } from '../src/index.js';
import { createGoogleCloudDriver } from '../src/driver-api.js';
import type { GoogleCloudDriver } from '../src/driver/google-cloud-driver.js';
import { emulatorClientOptions, uniqueTableId } from '../src/testing/index.js';
import { FAMILY } from './entities.js';
import type { ResolvedOptions } from './options.js';

/**
 * What every workload shares: one `Bigtable` client (the raw baseline and the
 * mapper's driver use the same client and channel), table helpers that track
 * and drop what they create, and a cache of datasets written once per run.
 * @example
 * ```ts
 * const ctx = BenchContext.open(options);
 * try { ... } finally { await ctx.close(); }
 * ```
 */
export class BenchContext {
  readonly options: ResolvedOptions;
  readonly bigtable: Bigtable;
  readonly instance: Instance;
  readonly driver: GoogleCloudDriver;
  /** Datasets written once and shared by workloads (e.g. the wide scan table). */
  readonly datasets = new Map<string, Promise<unknown>>();
  readonly #tables = new Set<string>();

  private constructor(options: ResolvedOptions) {
    this.options = options;
    this.bigtable = new Bigtable(emulatorClientOptions(options.emulatorHost, 'bench-project'));
    this.instance = this.bigtable.instance(options.instance);
    this.driver = createGoogleCloudDriver({ bigtable: this.bigtable, instance: options.instance });
  }

  /** Connects to the options' emulator. */
  static open(options: ResolvedOptions): BenchContext {
    return new BenchContext(options);
  }

  /** A progress line. */
  log(line: string): void {
    this.options.log(line);
  }

  /** A fresh mapper on the shared driver (it never closes the shared client). */
  mapper(): BigtableMapper {
    return new BigtableMapper({ driver: this.driver });
  }

  /** Creates a fresh table with the bench family (no GC rule) and returns its id. */
  async createTable(tag: string): Promise<string> {
    const id = uniqueTableId(`${this.options.tablePrefix}-${tag}`);
    await this.instance.table(id).create({ families: [FAMILY] });
    this.#tables.add(id);
    return id;
  }

  /** The raw client's handle on a table. */
  table(id: string): Table {
    return this.instance.table(id);
  }

  /** Deletes a table this context created. */
  async dropTable(id: string): Promise<void> {
    if (!this.#tables.delete(id)) return;
    await this.instance.table(id).delete();
  }

  /** Returns the cached dataset `name`, building it once. */
  dataset<T>(name: string, build: () => Promise<T>): Promise<T> {
    let entry = this.datasets.get(name) as Promise<T> | undefined;
    if (entry === undefined) {
      entry = build();
      this.datasets.set(name, entry);
    }
    return entry;
  }

  /** Drops every table still present and closes the client. */
  async close(): Promise<void> {
    for (const id of [...this.#tables]) await this.dropTable(id).catch(() => undefined);
    await this.bigtable.close();
  }
}
