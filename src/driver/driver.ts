import type { GcRule } from '../schema/gc-rule-types.js';

/** A column family as the instance reports it. @example `{ name: 'm', gc: { kind: 'maxVersions', count: 5 } }` */
export interface ActualFamily {
  readonly name: string;
  readonly gc: GcRule | undefined;
}

/**
 * The seam between the mapper and Bigtable: the only calls the mapper makes.
 * `createGoogleCloudDriver()` implements it with `@google-cloud/bigtable`;
 * unit tests can implement it in memory.
 *
 * @example
 * ```ts
 * const families = await driver.getFamilies('readings'); // undefined when the table is missing
 * ```
 */
export interface BigtableDriver {
  /** Table ids of the instance. */
  listTables(): Promise<string[]>;
  /** The table's families, or `undefined` when the table does not exist. */
  getFamilies(table: string): Promise<ActualFamily[] | undefined>;
  createTable(table: string, families: readonly ActualFamily[]): Promise<void>;
  createFamily(table: string, family: ActualFamily): Promise<void>;
  /** Replaces the family's GC rule (`undefined` removes it). */
  setFamilyGc(table: string, family: string, gc: GcRule | undefined): Promise<void>;
  deleteFamily(table: string, family: string): Promise<void>;
  deleteTable(table: string): Promise<void>;
  /** Releases the client if this driver created it. */
  close(): Promise<void>;
}
