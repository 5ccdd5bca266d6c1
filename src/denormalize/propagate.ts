import { decodeRowKey } from '../codec/physical-key.js';
import type { BigtableDriver, RowData } from '../driver/driver.js';
import { PartialWriteError, type WriteFailure } from '../errors/partial-write-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { CompiledMutation } from '../mutation/compiled-mutation.js';
import { executeScan } from '../scan/execute-scan.js';
import { copyMutations } from './copy-diff.js';
import { planPropagation, type PropagationGroup } from './plan-propagation.js';
import { rowMatches } from './row-matches.js';
import { writeCopies, type CopyUpdate } from './write-copies.js';

/** Counts of a propagation. @example `{ scanned: 1200, updated: 1200 }` */
export interface PropagationProgress {
  /** Dependent rows read. */
  readonly scanned: number;
  /** Rows whose copies were rewritten. */
  readonly updated: number;
}

/** Options of `propagate`. @example `{ batchSize: 500, concurrency: 2, onProgress: (p) => console.log(p.updated) }` */
export interface PropagateOptions {
  /** Called after every written batch, every `batchSize` rows scanned, and once at the end. */
  onProgress?(progress: PropagationProgress): void;
  /** Rows per MutateRows call. Default 500. */
  batchSize?: number;
  /** MutateRows calls in flight. Default 2. */
  concurrency?: number;
  /** Allow a propagation that must scan the whole dependent table (see the copy's `strategy.reason`). */
  allowFullScan?: boolean;
}

/**
 * Rewrites the copies of `source` in every dependent row (DESIGN.md §6):
 * scans only the rows holding them (a key prefix, per salt bucket when the
 * salt needs it; the whole table only with `allowFullScan`), reads only the
 * copies, and writes only the copies that differ, in MutateRows batches.
 * Re-running it updates nothing. Rows the server rejects are listed in one
 * `PartialWriteError` after every other row was written.
 * @internal
 * @example
 * ```ts
 * const { scanned, updated } = await propagateCopies(driver, compileEntity(Reading), sensor, {});
 * ```
 */
export async function propagateCopies<T>(driver: BigtableDriver, schema: EntitySchema<T>, source: object, options: PropagateOptions = {}): Promise<PropagationProgress> {
  const batchSize = positiveInt(options.batchSize ?? 500, 'batchSize');
  const concurrency = positiveInt(options.concurrency ?? 2, 'concurrency');
  const plan = planPropagation(schema, source, options);
  const counts = { scanned: 0, updated: 0 };
  const report = (): void => options.onProgress?.({ scanned: counts.scanned, updated: counts.updated });
  const failures: WriteFailure<Record<string, unknown>>[] = [];
  for (const group of plan.groups) {
    const updates = groupUpdates(driver, schema as EntitySchema, group, source as Record<string, unknown>, counts, batchSize, report);
    failures.push(...(await writeCopies(driver, schema.table, updates, { batchSize, concurrency }, (written) => {
      counts.updated += written;
      report();
    })));
  }
  report();
  if (failures.length > 0) throw new PartialWriteError(schema.name, failures, counts.updated);
  return { scanned: counts.scanned, updated: counts.updated };
}

async function* groupUpdates(driver: BigtableDriver, schema: EntitySchema, group: PropagationGroup, source: Record<string, unknown>, counts: { scanned: number }, batchSize: number, report: () => void): AsyncGenerator<CopyUpdate> {
  const columns = group.copies.map((d) => schema.columnsByProperty[d.property]).filter((c) => c !== undefined);
  const values: Record<string, unknown> = {};
  for (const d of group.copies) values[d.property] = source[d.field];
  let index = 0;
  for await (const rows of executeScan(driver, schema, group.scan)) {
    for (const { row } of rows) {
      counts.scanned += 1;
      if (counts.scanned % batchSize === 0) report();
      const key = decodeRowKey(schema, row.key);
      if (group.strategy.kind === 'full-scan' && !rowMatches(schema, group.match, key, row)) continue;
      const mutations = copyMutations(schema, columns, values, row);
      if (mutations.length > 0) yield { index: index++, key, mutation: toMutation(schema, row, mutations) };
    }
  }
}

function toMutation(schema: EntitySchema, row: RowData, mutations: CompiledMutation['mutations']): CompiledMutation {
  return { table: schema.table, rowKey: row.key, rowKeyText: row.key.toString('utf8'), mutations, idempotent: true };
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new ValidationError(`propagate: ${name} must be a positive integer, got ${String(value)}. Fix: pass ${name}: 1 or more`, { option: name });
  return value;
}
