/**
 * Namespaced metadata keys. `Symbol.for` makes them identical across duplicate
 * installs of the package.
 * @internal
 */
export const MetadataKeys = {
  entity: Symbol.for('bigtable-mapper:entity'),
  keyParts: Symbol.for('bigtable-mapper:key-parts'),
  salt: Symbol.for('bigtable-mapper:salt'),
  families: Symbol.for('bigtable-mapper:families'),
  columns: Symbol.for('bigtable-mapper:columns'),
  cellTimestamp: Symbol.for('bigtable-mapper:cell-timestamp'),
  denormalized: Symbol.for('bigtable-mapper:denormalized'),
  /** Mistakes a standard field decorator found before its class existed, reported once the class is known. */
  rejected: Symbol.for('bigtable-mapper:rejected'),
} as const;
