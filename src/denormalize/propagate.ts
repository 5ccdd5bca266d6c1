import { decodeRowKey } from '../key/physical-key.js';
import type { BigtableDriver, CallOptions } from '../model/driver.js';
import { PartialWriteError, type WriteFailure } from '../errors/operation-errors.js';
import { ValidationError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { executeScan } from '../scan/execute-scan.js';
import { copyMutations } from './copy-diff.js';
import { copyPredicate } from './copy-predicate.js';
import { planPropagation, type PropagationGroup } from './plan-propagation.js';
import { rowMatches } from './row-matches.js';
import { writeCopies, type CopyUpdate } from '../write/write-copies.js';

/** Counts of a propagation. @example `{ scanned: 1200, updated: 1200 }` */
export interface PropagationProgress {
  /** Dependent rows read. */
  readonly scanned: number;
  /** Rows whose copies were rewritten. */
  readonly updated: number;
}

/** Options of `propagate`. @example `{ concurrency: 16, onProgress: (p) => console.log(p.updated) }` */
export interface PropagateOptions {
  /** Called every `batchSize` rows scanned, every `batchSize` rows rewritten, and once at the end. */
  onProgress?(progress: PropagationProgress): void;
  /** Rows between two progress reports. Default 500. */
  batchSize?: number;
  /** Conditional row writes (CheckAndMutateRow) in flight, 1 to 256. Default 16. */
  concurrency?: number;
  /** Allow a propagation that must scan the whole dependent table (see the copy's `strategy.reason`). */
  allowFullScan?: boolean;
}

const MAX_CONCURRENCY = 256;

/**
 * Rewrites the copies of `source` in every dependent row (DESIGN.md §6):
 * scans only the rows holding them (a key prefix, per salt bucket when the
 * salt needs it; the whole table only with `allowFullScan`), reads only the
 * copies, and rewrites each row whose copies differ with one conditional
 * write (`copyPredicate`): never a row deleted since the scan (it is not
 * re-created) and never a copy written at or after this propagation's
 * version, the time it started (a concurrent save or a later propagation
 * wins). New copies carry that version as their cell timestamp. Re-running
 * it updates nothing. Rows the server rejects are listed in one
 * `PartialWriteError` after every other row was written; `call` bounds and
 * cancels every read and write.
 * @internal
 * @example
 * ```ts
 * const { scanned, updated } = await propagateCopies(driver, compileEntity(Reading), sensor, {}, { signal, deadline });
 * ```
 */
export async function propagateCopies<T>(
  driver: BigtableDriver,
  schema: EntitySchema<T>,
  source: object,
  options: PropagateOptions = {},
  call?: CallOptions,
): Promise<PropagationProgress> {
  const versionMicros = Date.now() * 1000;
  const batchSize = positiveInt(options.batchSize ?? 500, 'batchSize', Number.MAX_SAFE_INTEGER);
  const concurrency = positiveInt(options.concurrency ?? 16, 'concurrency', MAX_CONCURRENCY);
  const plan = planPropagation(schema, source, options);
  const operation = `${schema.name}.propagate`;
  const counts = { scanned: 0, updated: 0 };
  const report = (): void => options.onProgress?.({ scanned: counts.scanned, updated: counts.updated });
  const failures: WriteFailure<Record<string, unknown>>[] = [];
  for (const group of plan.groups) {
    const updates = groupUpdates(
      driver,
      schema as EntitySchema,
      group,
      source as Record<string, unknown>,
      versionMicros,
      call,
      counts,
      batchSize,
      report,
    );
    const result = await writeCopies(driver, updates, concurrency, call, operation, () => {
      counts.updated += 1;
      if (counts.updated % batchSize === 0) report();
    });
    failures.push(...result.failures);
  }
  report();
  if (failures.length > 0) throw new PartialWriteError(schema.name, failures, counts.updated);
  return { scanned: counts.scanned, updated: counts.updated };
}

async function* groupUpdates(
  driver: BigtableDriver,
  schema: EntitySchema,
  group: PropagationGroup,
  source: Record<string, unknown>,
  versionMicros: number,
  call: CallOptions | undefined,
  counts: { scanned: number },
  batchSize: number,
  report: () => void,
): AsyncGenerator<CopyUpdate> {
  const columns = group.copies.map((d) => schema.columnsByProperty[d.property]).filter((c) => c !== undefined);
  const predicate = copyPredicate(columns, versionMicros);
  const values: Record<string, unknown> = {};
  for (const d of group.copies) values[d.property] = source[d.field];
  let index = 0;
  for await (const rows of executeScan(driver, schema, group.scan, undefined, call)) {
    for (const { row } of rows) {
      counts.scanned += 1;
      if (counts.scanned % batchSize === 0) report();
      const key = decodeRowKey(schema, row.key);
      if (group.strategy.kind === 'full-scan' && !rowMatches(schema, group.match, key, row)) continue;
      const mutations = copyMutations(schema, columns, values, row, versionMicros);
      if (mutations.length === 0) continue;
      const request = { table: schema.table, rowKey: row.key, predicate, onMatch: mutations, onNoMatch: [] };
      yield { index: index++, key, rowKeyText: row.key.toString('utf8'), request };
    }
  }
}

function positiveInt(value: number, name: string, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    const most = max < Number.MAX_SAFE_INTEGER ? ` of at most ${max}` : '';
    throw new ValidationError(
      `propagate: ${name} must be a positive integer${most}, got ${String(value)}. Fix: pass ${name}: 1 or more${most === '' ? '' : ` and at most ${max}`}`,
      { option: name },
    );
  }
  return value;
}
