import type { Observable } from 'rxjs';
import type { BigtableDriver } from '../driver/driver.js';
import { EntityNotFoundError } from '../errors/not-found-error.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { compileCondition, type SaveCondition } from '../mutation/compile-condition.js';
import { compileSave } from '../mutation/compile-save.js';
import { compileDelete, compileUpdate } from '../mutation/compile-update.js';
import type { CompiledMutation } from '../mutation/compiled-mutation.js';
import { encodeRowKey } from '../codec/physical-key.js';
import { planScan } from '../scan/plan-scan.js';
import type { ReadOptions } from '../scan/read-options.js';
import type { ScanPlan } from '../scan/scan-plan.js';
import type { ScanQuery } from '../scan/scan-query.js';
import { iterableToObservable } from '../scan/to-observable.js';
import { findByKeys } from './find.js';
import { incrementColumn } from './increment.js';
import { writeMany, type BulkWriteOptions, type BulkWriteResult } from './save-many.js';
import { iterateScan, readPage, type Page } from './scan-ops.js';
import type { EntityKey, EntityProperty } from '../metadata/key-type.js';
import { compileEntity } from '../metadata/compile-entity.js';
import { planPropagation, type PropagationPlan } from '../denormalize/plan-propagation.js';
import { propagateCopies, type PropagateOptions, type PropagationProgress } from '../denormalize/propagate.js';
import type { SourceReader, SourceResolver } from '../denormalize/source-reader.js';
import { bulkWithCopies, withCopies } from '../denormalize/with-copies.js';

/**
 * Typed access to one entity's rows: writes compile to atomic row mutations,
 * reads fetch only what is selected, scans stream over every salt bucket in
 * parallel and merge back in key order. Get one from `mapper.getRepository()`.
 *
 * @example
 * ```ts
 * const readings = mapper.getRepository(Reading);
 * await readings.save(Object.assign(new Reading(), { sensorId: 's1', ts: new Date(), temperature: 21.5 }));
 * for await (const r of readings.iterate({ where: { sensorId: 's1' }, limit: 10 })) console.log(r);
 * ```
 */
export class Repository<T extends object> {
  /** The compiled schema of the entity. */
  readonly schema: EntitySchema<T>;
  readonly #driver: BigtableDriver;
  readonly #sources: SourceResolver;

  /** @internal `sources` reads the sources of `@Denormalized` copies (default: a repository on the same driver). */
  constructor(driver: BigtableDriver, schema: EntitySchema<T>, sources?: SourceResolver) {
    this.#driver = driver;
    this.schema = schema;
    this.#sources = sources ?? ((source) => new Repository(driver, compileEntity(source) as EntitySchema<object>) as SourceReader);
  }

  /** The exact mutation `save()` would send, without sending it. @example `repo.compileSave(reading).rowKeyText` */
  compileSave(entity: T, options: { now?: number } = {}): CompiledMutation {
    return compileSave(this.schema, entity, options);
  }

  /** Writes every defined column in one atomic MutateRow with explicit timestamps; fills `undefined` `@Denormalized` copies from their sources first. @example `await repo.save(reading);` */
  async save(entity: T): Promise<void> {
    await this.#driver.mutateRow(compileSave(this.schema, await withCopies(this.schema, entity, this.#sources)));
  }

  /** Deletes the row's other cells and writes the entity (copies filled as in `save`), atomically. @example `await repo.replace(reading);` */
  async replace(entity: T): Promise<void> {
    await this.#driver.mutateRow(compileSave(this.schema, await withCopies(this.schema, entity, this.#sources), { mode: 'replace' }));
  }

  /** Writes only the given columns; `null` deletes a cell. @example `await repo.update({ id: 'j1' }, { status: 'done', error: null });` */
  async update(key: EntityKey<T>, partial: { [K in keyof T]?: T[K] | null }): Promise<void> {
    await this.#driver.mutateRow(compileUpdate(this.schema, key as Record<string, unknown>, partial as Partial<T>));
  }

  /** Deletes the row. @example `await repo.delete({ sensorId: 's1', ts });` */
  async delete(key: EntityKey<T>): Promise<void> {
    await this.#driver.mutateRow(compileDelete(this.schema, key as Record<string, unknown>));
  }

  /** Deletes many rows in bulk. @example `await repo.deleteMany(keys);` */
  deleteMany(keys: Iterable<EntityKey<T>> | AsyncIterable<EntityKey<T>>, options?: BulkWriteOptions): Promise<BulkWriteResult> {
    return writeMany(this.#driver, this.schema.name, this.schema.table, keys, (k) => compileDelete(this.schema, k as Record<string, unknown>), options);
  }

  /**
   * Saves many entities in chunked MutateRows calls with bounded concurrency;
   * accepts arrays and async iterables. `@Denormalized` copies are filled with
   * one source read per distinct source key (one `findMany` per chunk of
   * 1,000 entities). Throws a `PartialWriteError` listing each failed entity,
   * a missing source included (the rest are persisted).
   * @example `await repo.saveMany(readings, { batchSize: 500, concurrency: 2 });`
   */
  saveMany(entities: Iterable<T> | AsyncIterable<T>, options?: BulkWriteOptions): Promise<BulkWriteResult> {
    const compileOptions = { now: Date.now() };
    const input = bulkWithCopies(this.schema, entities, this.#sources);
    return writeMany(this.#driver, this.schema.name, this.schema.table, input.entities, (e) => compileSave(this.schema, input.take(e), compileOptions), options);
  }

  /** Atomically adds `by` to an `int` column and returns the new value. @example `const hits = await repo.increment({ page: '/' }, 'hits');` */
  increment(key: EntityKey<T>, field: EntityProperty<T>, by: number | bigint = 1): Promise<number> {
    return incrementColumn(this.#driver, this.schema, key as Record<string, unknown>, field, by);
  }

  /** Saves only if the condition holds (CheckAndMutateRow); resolves whether it applied. @example `await repo.saveIf(job, { column: 'status', equals: 'pending' });` */
  async saveIf(entity: T, condition: SaveCondition<T>): Promise<boolean> {
    const { request, appliesOnMatch } = compileCondition(this.schema, compileSave(this.schema, await withCopies(this.schema, entity, this.#sources)), condition);
    const matched = await this.#driver.checkAndMutate(request);
    return matched === appliesOnMatch;
  }

  /** Reads one row (one key, even when salted) or `undefined`. @example `await repo.findOne({ sensorId: 's1', ts }, { select: ['temperature'] });` */
  async findOne(key: EntityKey<T>, options?: ReadOptions<T>): Promise<T | undefined> {
    const [found] = await findByKeys(this.#driver, this.schema, [key as Record<string, unknown>], options);
    return found;
  }

  /** Like `findOne`, but throws `EntityNotFoundError` when the row is missing. @example `await repo.findOneOrFail({ id: 'j1' });` */
  async findOneOrFail(key: EntityKey<T>, options?: ReadOptions<T>): Promise<T> {
    const found = await this.findOne(key, options);
    if (found === undefined) throw new EntityNotFoundError(this.schema.name, encodeRowKey(this.schema, key as Record<string, unknown>).logical);
    return found;
  }

  /** Reads many rows in input order, `undefined` for missing ones. @example `const [a, b] = await repo.findMany([k1, k2]);` */
  findMany(keys: readonly EntityKey<T>[], options?: ReadOptions<T>): Promise<(T | undefined)[]> {
    return findByKeys(this.#driver, this.schema, keys as unknown as Record<string, unknown>[], options);
  }

  /** The physical ranges and filter a scan would read. @example `repo.planScan({ where: { userId: 'u1' } }).sources.length` */
  planScan(query: ScanQuery<T> = {}): ScanPlan {
    return planScan(this.schema, query);
  }

  /** A cold Observable of the scan's entities; unsubscribing cancels every read. @example `repo.scan({ limit: 10 }).subscribe(console.log);` */
  scan(query: ScanQuery<T> = {}): Observable<T> {
    return iterableToObservable(() => iterateScan(this.#driver, this.schema, query));
  }

  /** Pull-based async iteration; breaking out cancels every read. @example `for await (const r of repo.iterate({ where: { sensorId: 's1' } })) ...` */
  iterate(query: ScanQuery<T> = {}): AsyncIterable<T> {
    return { [Symbol.asyncIterator]: () => iterateScan(this.#driver, this.schema, query) };
  }

  /** Reads `limit` rows and a cursor for the next page. @example `const { items, cursor } = await repo.page({ limit: 100, cursor });` */
  page(query: ScanQuery<T> & { limit: number }): Promise<Page<T>> {
    return readPage(this.#driver, this.schema, query);
  }

  /**
   * Rewrites the `@Denormalized` copies of `source` (e.g. a `Sensor` whose
   * location changed) in every row of this entity holding them: scans only
   * those rows, writes only the copies that differ, in bulk; safe to re-run.
   * A key layout that needs a full scan is refused unless `allowFullScan`.
   * @example `const { scanned, updated } = await readings.propagate(sensor, { onProgress: (p) => log(p) });`
   */
  propagate(source: object, options?: PropagateOptions): Promise<PropagationProgress> {
    return propagateCopies(this.#driver, this.schema, source, options);
  }

  /** What `propagate(source)` would scan, without reading or writing. @example `readings.planPropagation(sensor).groups[0].strategy.kind // 'prefix'` */
  planPropagation(source: object, options?: { allowFullScan?: boolean }): PropagationPlan {
    return planPropagation(this.schema, source, options);
  }
}
