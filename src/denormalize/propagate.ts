import type { RowFilter } from '../model/row-filter.js';
import { cellQualifiers } from '../metadata/compile-columns.js';
import type { CellData, RowData, BigtableDriver, CallOptions } from '../model/driver.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import { compileColumnValue } from '../mutation/compile-cells.js';
import type { CellMutation } from '../model/mutation.js';
import { ownCells } from '../scan/own-cells.js';
import { keyPropertyComponent } from '../metadata/compile-key-plan.js';
import { decodeRowKey, encodeRowKey } from '../key/physical-key.js';
import { layoutOfKey } from '../key/previous-layout.js';
import { dataCellsFilter, marksWrites } from '../metadata/resalt-mark.js';
import { moveFromPreviousLayout } from '../write/move-row.js';
import { PartialWriteError, type WriteFailure } from '../errors/operation-errors.js';
import { ValidationError } from '../errors/errors.js';
import { executeScan } from '../scan/execute-scan.js';
import { planPropagation, type PropagationGroup } from './plan-propagation.js';
import { writeCopies, type CopyUpdate } from '../write/write-copies.js';

/**
 * The CheckAndMutateRow predicate under which a propagation rewrites a row's
 * copies: it matches only when the row still exists (a row deleted since the
 * scan has no cell, so nothing is written and it is not re-created) and none
 * of `columns` holds a cell at `versionMicros` or later (a copy written at
 * the same time or after the propagation's version is newer, or as new, and
 * is kept). One filter, evaluated atomically with the mutations:
 * `condition(test: newer copy cells, pass: blockAll, fail: passAll)`.
 * @internal
 */
export function copyPredicate(
  columns: readonly ColumnSchema[],
  versionMicros: number,
  families?: readonly { readonly name: string }[],
): RowFilter {
  const copies: RowFilter = {
    kind: 'interleave',
    filters: columns.map((c) => ({
      kind: 'chain',
      filters: [
        { kind: 'family', name: c.family },
        { kind: 'qualifiers', names: cellQualifiers(c) },
      ],
    })),
  };
  const newerCopies: RowFilter = {
    kind: 'chain',
    filters: [copies, { kind: 'timestampRange', startMicros: versionMicros, endMicros: undefined }],
  };
  // While re-salting (`families` given), a tombstone's mark alone is no row.
  const exists: RowFilter = families === undefined ? { kind: 'passAll' } : dataCellsFilter(families);
  return { kind: 'condition', test: newerCopies, pass: { kind: 'blockAll' }, fail: exists };
}

/**
 * The newest cell of a column as a propagation scan returns it. The scan
 * adds one stripped (empty) cell per column so that rows missing a copy show
 * up; at the newest timestamp the cell with a value wins (an empty value then
 * means the stored value is empty too).
 * @internal
 * @example
 * ```ts
 * latestCell(row.cells.meta?.location); // { value: <'lab'>, timestampMicros: 1700000000000000 }
 * ```
 */
function latestCell(cells: readonly CellData[] | undefined): CellData | undefined {
  if (cells === undefined || cells.length === 0) return undefined;
  const newest = Math.max(...cells.map((c) => c.timestampMicros));
  const top = cells.filter((c) => c.timestampMicros === newest);
  return top.find((c) => c.value.length > 0) ?? top[0];
}

/**
 * The mutations that make a row's copies hold `values` (property → new value,
 * `null` clears): nothing for a copy that already holds exactly those bytes
 * (so a second propagation writes nothing); otherwise delete every cell of the
 * copy and write the new value at `versionMicros`, the propagation's version.
 * They are sent under `copyPredicate`, so the delete only ever removes
 * versions older than that one.
 * @internal
 * @example
 * ```ts
 * copyMutations(schema, [schema.columnsByProperty.location], { location: 'lab-2' }, row, 1700000000000000);
 * // [{ kind: 'deleteFromColumn', ... }, { kind: 'setCell', ..., timestampMicros: 1700000000000000 }] or [] when unchanged
 * ```
 */
function copyMutations(
  schema: EntitySchema,
  columns: readonly ColumnSchema[],
  values: Readonly<Record<string, unknown>>,
  row: RowData,
  versionMicros: number,
): CellMutation[] {
  const mutations: CellMutation[] = [];
  for (const column of columns) {
    const current = new Map<string, CellData>();
    for (const q of cellQualifiers(column)) {
      const cell = latestCell(ownCells(row, column.family, q));
      if (cell !== undefined) current.set(q, cell);
    }
    const desired = compileColumnValue(schema, column, values[column.property], versionMicros).filter(
      (m) => m.kind === 'setCell',
    );
    const same =
      desired.length === current.size &&
      desired.every((m) => m.kind === 'setCell' && current.get(m.qualifier)?.value.equals(m.value) === true);
    if (same) continue;
    for (const q of cellQualifiers(column))
      mutations.push({ kind: 'deleteFromColumn', family: column.family, qualifier: q });
    mutations.push(...desired);
  }
  return mutations;
}

/**
 * Whether a row of a full-scan propagation belongs to the source: every
 * mapped key part or column holds the source's key value (compared as encoded
 * text or bytes, so a Date and a number compare exactly).
 * @internal
 * @example
 * ```ts
 * rowMatches(schema, { sensorId: 's1' }, decodeRowKey(schema, row.key), row); // true
 * ```
 */
function rowMatches(
  schema: EntitySchema,
  match: Readonly<Record<string, unknown>>,
  key: Readonly<Record<string, unknown>>,
  row: RowData,
): boolean {
  return Object.entries(match).every(([property, expected]) => {
    const component = keyPropertyComponent(schema.key.components, property);
    if (component !== undefined)
      return key[property] !== undefined && component.codec.encode(key[property]) === component.codec.encode(expected);
    const column = schema.columnsByProperty[property];
    const cell = column === undefined ? undefined : latestCell(ownCells(row, column.family, column.qualifier));
    return column !== undefined && cell !== undefined && cell.value.equals(column.codec.encode(expected));
  });
}

/**
 * Counts of a propagation.
 * @example
 * ```ts
 * { scanned: 1200, updated: 1200 }
 * ```
 */
export interface PropagationProgress {
  /** Dependent rows read. */
  readonly scanned: number;
  /** Rows whose copies were rewritten. */
  readonly updated: number;
}

/**
 * Options of `propagate`.
 * @example
 * ```ts
 * { concurrency: 16, onProgress: (p) => console.log(p.updated) }
 * ```
 */
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

/** Every option name of {@link PropagateOptions}; the type keeps it complete. @internal */
export const PROPAGATE_OPTION_NAMES: readonly string[] = Object.keys({
  onProgress: true,
  batchSize: true,
  concurrency: true,
  allowFullScan: true,
} satisfies Record<keyof PropagateOptions, true>);

const MAX_CONCURRENCY = 256;

/**
 * Rewrites the copies of `source` in every dependent row (docs/denormalization.md):
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
 */
export async function propagateCopies<T>(
  driver: BigtableDriver,
  schema: EntitySchema<T>,
  source: object,
  options: PropagateOptions = {},
  call?: CallOptions,
): Promise<PropagationProgress> {
  // The millisecond after the start (cell timestamps are whole milliseconds): a copy saved before this
  // propagation started, in its start millisecond included, is older than its version.
  const versionMicros = (Date.now() + 1) * 1000;
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
  const predicate = copyPredicate(columns, versionMicros, marksWrites(schema) ? schema.families : undefined);
  const values: Record<string, unknown> = {};
  for (const d of group.copies) values[d.property] = source[d.field];
  let index = 0;
  const moveFirst = async (key: Record<string, unknown>): Promise<Buffer> => {
    await moveFromPreviousLayout(driver, schema, [key], call ?? {});
    return encodeRowKey(schema, key).key;
  };
  for await (const rows of executeScan(driver, schema, group.scan, undefined, call)) {
    for (const { row } of rows) {
      counts.scanned += 1;
      if (counts.scanned % batchSize === 0) report();
      const key = decodeRowKey(schema, row.key);
      if (group.strategy.kind === 'full-scan' && !rowMatches(schema, group.match, key, row)) continue;
      const mutations = copyMutations(schema, columns, values, row, versionMicros);
      if (mutations.length === 0) continue;
      // A row not moved yet is moved first: the old row is only ever read and deleted, never changed.
      const rowKey = layoutOfKey(schema, row.key.toString('utf8')) === 'previous' ? await moveFirst(key) : row.key;
      const request = { table: schema.table, rowKey, predicate, onMatch: mutations, onNoMatch: [] };
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

/**
 * Result of `mapper.propagate(source)`: totals and one entry per dependent entity.
 *
 * @example
 * ```ts
 * const { updated, dependents } = await mapper.propagate(sensor); // dependents: [{ entity: 'Reading', scanned, updated }]
 * ```
 */
export interface MapperPropagationResult extends PropagationProgress {
  /** Progress per dependent entity, in the order they were propagated. */
  readonly dependents: readonly ({
    /** Name of the dependent entity class. */
    readonly entity: string;
  } & PropagationProgress)[];
}

/**
 * Propagates `source` to every registered entity holding copies of its class,
 * one entity after the other; progress counts add up over the entities.
 * Throws `ValidationError` for a source that is not an entity instance.
 * @internal
 */
export async function propagateToDependents(
  schemas: readonly EntitySchema[],
  source: object,
  repositoryOf: (schema: EntitySchema) => {
    propagate(source: object, options?: PropagateOptions): Promise<PropagationProgress>;
  },
  options: PropagateOptions = {},
): Promise<MapperPropagationResult> {
  if (source === null || typeof source !== 'object' || source.constructor === Object) {
    throw new ValidationError(
      'mapper.propagate() needs an instance of the source entity, so it can find the entities that copy from it. Fix: pass e.g. sensors.create({ id, location }), or call repo.propagate() on one dependent',
      {},
    );
  }
  const dependents = schemas.filter((s) => s.denormalized.some((d) => source instanceof d.source));
  const results: ({ entity: string } & PropagationProgress)[] = [];
  const done = { scanned: 0, updated: 0 };
  for (const schema of dependents) {
    const onProgress =
      options.onProgress === undefined
        ? undefined
        : (p: PropagationProgress) =>
            options.onProgress?.({ scanned: done.scanned + p.scanned, updated: done.updated + p.updated });
    const result = await repositoryOf(schema).propagate(source, { ...options, onProgress });
    done.scanned += result.scanned;
    done.updated += result.updated;
    results.push({ entity: schema.name, ...result });
  }
  return { ...done, dependents: results };
}
