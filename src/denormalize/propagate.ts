import { cellQualifiers } from '../metadata/compile-columns.js';
import type { CellData, RowData, BigtableDriver, CallOptions } from '../model/driver.js';
import type { ColumnSchema, DenormalizedSchema, EntitySchema } from '../metadata/entity-schema.js';
import type { Constructor } from '../model/declarations.js';
import { compileEntity } from '../metadata/compile-entity.js';
import { compileColumnValue } from '../mutation/compile-cells.js';
import { ownCells } from '../read/own-cells.js';
import { keyPropertyComponent } from '../metadata/compile-key-plan.js';
import { decodeRowKey, encodeRowKey } from '../key/physical-key.js';
import { layoutOfKey } from '../key/previous-layout.js';
import { moveFromPreviousLayout } from '../write/move-row.js';
import { PartialWriteError, type WriteFailure } from '../errors/operation-errors.js';
import { EntityNotFoundError, ValidationError } from '../errors/errors.js';
import { executeScan } from '../scan/execute-scan.js';
import { planPropagation, type PropagationPlan } from './plan-propagation.js';
import { writeCopies, type CopyUpdate } from '../write/write-copies.js';
import { sameCopyValue, sourceKeyOf, type SourceResolver } from './fill-copies.js';
import { copyRewrite, rowExists } from './settle-copies.js';

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
 * The copies of `row` that do not hold `values` yet (property → new value,
 * `null` clears), compared as the cells they would be: a copy that already
 * holds exactly those bytes is left out, so a second propagation writes
 * nothing.
 * @internal
 * @example
 * ```ts
 * staleCopies(schema, [schema.columnsByProperty.location], { location: 'lab-2' }, row); // Map { 'location' => 'lab-2' } or empty
 * ```
 */
function staleCopies(
  schema: EntitySchema,
  columns: readonly ColumnSchema[],
  values: Readonly<Record<string, unknown>>,
  row: RowData,
): Map<string, unknown> {
  const stale = new Map<string, unknown>();
  for (const column of columns) {
    const current = new Map<string, CellData>();
    for (const q of cellQualifiers(column)) {
      const cell = latestCell(ownCells(row, column.family, q));
      if (cell !== undefined) current.set(q, cell);
    }
    const value = values[column.property] ?? null;
    const desired = compileColumnValue(schema, column, value, 0).filter((m) => m.kind === 'setCell');
    const same =
      desired.length === current.size &&
      desired.every((m) => m.kind === 'setCell' && current.get(m.qualifier)?.value.equals(m.value) === true);
    if (!same) stale.set(column.property, value);
  }
  return stale;
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
 * Rewrites the copies of `source` in every dependent row (docs/denormalization.md).
 * The values come from the source row as stored (read through `sources`;
 * `source` gives its class and key), not from the object passed: a stale
 * object cannot write an old value over a newer one. It scans only the rows
 * holding copies (a key prefix, per salt bucket when the salt needs it; the
 * whole table only with `allowFullScan`), reads only the copies, and
 * rewrites each row whose copies differ with one conditional write that
 * applies only while the row exists ({@link rowExists}: a row deleted since
 * the scan is not re-created). Then it reads the source again: when its
 * copied values changed meanwhile, it runs again with the new ones, so a
 * slow propagation of an older value never has the last word. Re-running it
 * updates nothing. Rows the server rejects are listed in one
 * `PartialWriteError` after every other row was written; `call` bounds and
 * cancels every read and write. A missing source row is an
 * `EntityNotFoundError`.
 * @internal
 */
export async function propagateCopies<T>(
  driver: BigtableDriver,
  schema: EntitySchema<T>,
  source: object,
  sources: SourceResolver,
  options: PropagateOptions = {},
  call: CallOptions = {},
  nowMs: () => number = () => Date.now(),
): Promise<PropagationProgress> {
  const batchSize = positiveInt(options.batchSize ?? 500, 'batchSize', Number.MAX_SAFE_INTEGER);
  const concurrency = positiveInt(options.concurrency ?? 16, 'concurrency', MAX_CONCURRENCY);
  const plan = planPropagation(schema, source, options);
  const copies = plan.groups.flatMap((g) => g.copies);
  const read = storedSource(copies, source, sources, call);
  const operation = `${schema.name}.propagate`;
  const counts = { scanned: 0, updated: 0 };
  const report = (): void => options.onProgress?.({ scanned: counts.scanned, updated: counts.updated });
  const failures: WriteFailure<Record<string, unknown>>[] = [];
  let stored = await read();
  if (stored === undefined) {
    const key = sourceKeyOf(copies, source);
    throw new EntityNotFoundError(
      plan.sourceName,
      key,
      encodeRowKey(compileEntity(copies[0]?.source as Constructor), key).text,
    );
  }
  for (;;) {
    for (const group of plan.groups) {
      const updates = groupUpdates(driver, schema as EntitySchema, group, stored, nowMs() * 1000, call, () => {
        counts.scanned += 1;
        if (counts.scanned % batchSize === 0) report();
      });
      const result = await writeCopies(driver, updates, concurrency, call, operation, () => {
        counts.updated += 1;
        if (counts.updated % batchSize === 0) report();
      });
      failures.push(...result.failures);
    }
    const again = await read();
    if (
      again === undefined ||
      copies.every((d) => sameCopyValue(schema as EntitySchema, d, stored?.[d.field], again[d.field]))
    )
      break;
    stored = again;
  }
  report();
  if (failures.length > 0) throw new PartialWriteError(schema.name, failures, counts.updated);
  return { scanned: counts.scanned, updated: counts.updated };
}

/** Reads the copied fields of the source row as stored; `undefined` when the row is missing. */
function storedSource(
  copies: readonly DenormalizedSchema[],
  source: object,
  sources: SourceResolver,
  call: CallOptions,
): () => Promise<Record<string, unknown> | undefined> {
  const key = sourceKeyOf(copies, source);
  const select = [...new Set(copies.map((d) => d.field))];
  const reader = sources((copies[0] as DenormalizedSchema).source);
  return async () => {
    const [found] = await reader.findMany([key], { select, signal: call.signal });
    return found as Record<string, unknown> | undefined;
  };
}

async function* groupUpdates(
  driver: BigtableDriver,
  schema: EntitySchema,
  group: PropagationPlan['groups'][number],
  source: Readonly<Record<string, unknown>>,
  writeMicros: number,
  call: CallOptions,
  onScanned: () => void,
): AsyncGenerator<CopyUpdate> {
  const columns = group.copies.map((d) => schema.columnsByProperty[d.property]).filter((c) => c !== undefined);
  const predicate = rowExists(schema);
  const values: Record<string, unknown> = {};
  for (const d of group.copies) values[d.property] = source[d.field] ?? null;
  let index = 0;
  const moveFirst = async (key: Record<string, unknown>): Promise<Buffer> => {
    await moveFromPreviousLayout(driver, schema, [key], call);
    return encodeRowKey(schema, key).key;
  };
  for await (const rows of executeScan(driver, schema, group.scan, undefined, call)) {
    for (const { row } of rows) {
      onScanned();
      const key = decodeRowKey(schema, row.key);
      if (group.strategy.kind === 'full-scan' && !rowMatches(schema, group.match, key, row)) continue;
      const stale = staleCopies(schema, columns, values, row);
      if (stale.size === 0) continue;
      // A row not moved yet is moved first: the old row is only ever read and deleted, never changed.
      const rowKey = layoutOfKey(schema, row.key.toString('utf8')) === 'previous' ? await moveFirst(key) : row.key;
      const onMatch = copyRewrite(schema, stale, writeMicros);
      const request = { table: schema.table, rowKey, predicate, onMatch, onNoMatch: [] };
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
