import type { Constructor } from '../model/declarations.js';
import { encodeRowKey } from '../key/physical-key.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { ColumnSchema, DenormalizedSchema, EntitySchema } from '../metadata/entity-schema.js';
import { compileColumnValue } from '../mutation/compile-cells.js';

/**
 * What copying needs from a source entity's repository: a batched read of
 * the selected columns. `Repository.findMany` is one (tests can spy on it).
 *
 * @example
 * ```ts
 * const reader: SourceReader = mapper.getRepository(Sensor);
 * const [sensor] = await reader.findMany([{ id: 's1' }], { select: ['location'] });
 * ```
 */
export interface SourceReader {
  /** Reads the rows of these source keys, only the `select`ed columns; resolves in input order, `undefined` for a missing row. */
  findMany(
    keys: readonly object[],
    options?: { readonly select?: readonly string[]; readonly signal?: AbortSignal },
  ): Promise<readonly (object | undefined)[]>;
}

/**
 * Finds the reader of a source entity class (the mapper hands out its
 * repositories, so copies are read through `mapper.getRepository(Sensor)`).
 *
 * @example
 * ```ts
 * const resolve: SourceResolver = (source) => mapper.getRepository(source);
 * ```
 */
export type SourceResolver = (source: Constructor) => SourceReader;

/**
 * One copy the mapper filled in an entity: the source it came from and the
 * value it wrote (`null` when the source row has no value for the field).
 * After the write, `settleCopies` reads the source again to catch a change
 * that landed in between.
 * @internal
 */
export interface FilledCopy {
  readonly copy: DenormalizedSchema;
  /** The source's row key as text: one id per source row. */
  readonly sourceId: string;
  /** The source's key properties. */
  readonly sourceKey: Readonly<Record<string, unknown>>;
  readonly value: unknown;
}

/** An entity with its copies filled (and which ones), or why it could not be. @internal */
export type FillOutcome<T> =
  | { readonly ok: true; readonly entity: T; readonly fills: readonly FilledCopy[] }
  | { readonly ok: false; readonly error: Error };

interface Need {
  readonly copy: DenormalizedSchema;
  readonly id: string;
  readonly key: Record<string, unknown>;
}

/**
 * Fills the `undefined` `@Denormalized` copies of entities from their sources,
 * for one repository call: every distinct source key is read once per filler
 * (cached across `fill` calls), in one `findMany` per source class per
 * `fill`, selecting only the copied columns. Given values are kept; the input
 * entities are never modified (filled ones are shallow copies).
 *
 * @internal
 */
class CopyFiller<T> {
  readonly #schema: EntitySchema<T>;
  readonly #resolve: SourceResolver;
  readonly #found = new Map<Constructor, Map<string, object | undefined>>();

  constructor(schema: EntitySchema<T>, resolve: SourceResolver) {
    this.#schema = schema;
    this.#resolve = resolve;
  }

  /** Fills the copies of `entities`, reading the sources not read yet. */
  async fill(entities: readonly T[]): Promise<FillOutcome<T>[]> {
    const needs = entities.map((entity) => this.#needs(entity));
    const failed = await this.#load(needs.flatMap((n) => (n instanceof Error ? [] : n)));
    return entities.map((entity, i) => {
      const need = needs[i] as Need[] | Error;
      return need instanceof Error ? { ok: false, error: need } : this.#apply(entity, need, failed);
    });
  }

  #needs(entity: T): Need[] | Error {
    if (entity === null || typeof entity !== 'object') return [];
    const record = entity as Record<string, unknown>;
    const needs: Need[] = [];
    for (const copy of this.#schema.denormalized) {
      if (record[copy.property] !== undefined) continue;
      const key: Record<string, unknown> = {};
      for (const pair of copy.key) key[pair.source] = record[pair.dependent];
      if (Object.values(key).some((v) => v === undefined || v === null)) continue;
      try {
        needs.push({ copy, key, id: encodeRowKey(compileEntity(copy.source), key).text });
      } catch (err) {
        if (copy.onMissingSource === 'skip') continue;
        const given = copy.key.map((p) => `${p.dependent} ${preview(record[p.dependent])}`).join(', ');
        return new ValidationError(
          `${this.#schema.name}.${copy.property}: ${given} cannot address a ${copy.sourceName} (${err instanceof Error ? err.message : String(err)}). Fix: give a valid ${copy.sourceName} key, or set ${copy.property} yourself`,
          { entity: this.#schema.name, property: copy.property, source: copy.sourceName },
        );
      }
    }
    return needs;
  }

  async #load(needs: readonly Need[]): Promise<Map<Constructor, Error>> {
    const pending = new Map<Constructor, Map<string, Record<string, unknown>>>();
    for (const { copy, id, key } of needs) {
      if (this.#found.get(copy.source)?.has(id) === true) continue;
      const keys = pending.get(copy.source) ?? new Map<string, Record<string, unknown>>();
      keys.set(id, key);
      pending.set(copy.source, keys);
    }
    const failed = new Map<Constructor, Error>();
    await Promise.all(
      [...pending].map(async ([source, keys]) => {
        const select = [...new Set(this.#schema.denormalized.filter((d) => d.source === source).map((d) => d.field))];
        try {
          const rows = await this.#resolve(source).findMany([...keys.values()], { select });
          const found = this.#found.get(source) ?? new Map<string, object | undefined>();
          [...keys.keys()].forEach((id, i) => found.set(id, rows[i]));
          this.#found.set(source, found);
        } catch (err) {
          failed.set(source, err instanceof Error ? err : new Error(String(err)));
        }
      }),
    );
    return failed;
  }

  #apply(entity: T, needs: readonly Need[], failed: ReadonlyMap<Constructor, Error>): FillOutcome<T> {
    const values: Record<string, unknown> = {};
    const fills: FilledCopy[] = [];
    for (const { copy, id, key } of needs) {
      const error = failed.get(copy.source);
      if (error !== undefined) return { ok: false, error };
      const source = this.#found.get(copy.source)?.get(id) as Record<string, unknown> | undefined;
      if (source === undefined) {
        if (copy.onMissingSource === 'skip') continue;
        return { ok: false, error: missingSource(this.#schema.name, copy, key) };
      }
      // A source without the value clears the copy: a copy holds what its source holds.
      const value = source[copy.field] ?? null;
      values[copy.property] = value;
      fills.push({ copy, sourceId: id, sourceKey: key, value });
    }
    if (fills.length === 0) return { ok: true, entity, fills };
    return {
      ok: true,
      entity: Object.assign(
        Object.create(Object.getPrototypeOf(entity) as object | null) as object,
        entity,
        values,
      ) as T,
      fills,
    };
  }

  /**
   * The sources this filler read whose copied fields hold other values now
   * (read again, in one `findMany` per source class): one instance of the
   * source class per changed source row, holding its key. A source row
   * deleted since is not listed (its copies stay as they are).
   */
  async changedSources(): Promise<object[]> {
    const changed: object[] = [];
    for (const [source, found] of this.#found) {
      const copies = this.#schema.denormalized.filter((d) => d.source === source);
      const ids = [...found.keys()].filter((id) => found.get(id) !== undefined);
      for (let i = 0; i < ids.length; i += SOURCE_KEYS_PER_READ) {
        const chunk = ids.slice(i, i + SOURCE_KEYS_PER_READ);
        const keys = chunk.map((id) => sourceKeyOf(copies, found.get(id) as Record<string, unknown>));
        const select = [...new Set(copies.map((d) => d.field))];
        const now = await this.#resolve(source).findMany(keys, { select });
        chunk.forEach((id, at) => {
          const before = found.get(id) as Record<string, unknown>;
          const after = now[at] as Record<string, unknown> | undefined;
          if (after === undefined) return;
          if (copies.some((d) => !sameCopyValue(this.#schema, d, before[d.field], after[d.field]))) {
            changed.push(Object.assign(Object.create(source.prototype as object) as object, keys[at]));
            found.set(id, after);
          }
        });
      }
    }
    return changed;
  }
}

/** Source keys per `findMany` when a bulk save checks its sources again. */
const SOURCE_KEYS_PER_READ = 1000;

/**
 * The key properties of a source object, as the copies map them.
 * @internal
 */
export function sourceKeyOf(copies: readonly DenormalizedSchema[], source: object): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  for (const copy of copies)
    for (const pair of copy.key) key[pair.source] = (source as Record<string, unknown>)[pair.source];
  return key;
}

/**
 * Whether two values of a copied field are the same copy: compared as the
 * cells the dependent's copy column would hold (so a Date and its time, or
 * two equal embedded objects, compare equal); `undefined` and `null` are both
 * no value.
 * @internal
 */
export function sameCopyValue(schema: EntitySchema, copy: DenormalizedSchema, a: unknown, b: unknown): boolean {
  const column = schema.columnsByProperty[copy.property] as ColumnSchema;
  const cells = (value: unknown): string =>
    compileColumnValue(schema, column, value ?? null, 0)
      .map((m) => (m.kind === 'setCell' ? `${m.qualifier}=${m.value.toString('hex')}` : ''))
      .join(',');
  return cells(a) === cells(b);
}

function missingSource(entity: string, copy: DenormalizedSchema, key: Record<string, unknown>): ValidationError {
  const keyText = copy.key.map((p) => `${p.source}: ${preview(key[p.source])}`).join(', ');
  return new ValidationError(
    `${entity}.${copy.property}: no ${copy.sourceName} with { ${keyText} } to copy ${copy.field} from. ` +
      `Fix: save the ${copy.sourceName} first, set ${copy.property} yourself, or declare @Denormalized({ ..., onMissingSource: 'skip' })`,
    { entity, property: copy.property, source: copy.sourceName, key: keyText },
  );
}

/**
 * Entities read ahead per source lookup of a bulk save. @internal
 * @example
 * ```ts
 * fillStream(input, filler, FILL_CHUNK)
 * ```
 */
const FILL_CHUNK = 1000;

/**
 * Bulk-save input with copies filled: `entities` re-yields the input as
 * given, one chunk of {@link FILL_CHUNK} at a time after one batched source
 * lookup per chunk, and `take(entity)` returns the filled entity (or throws
 * why it could not be filled) for the next entity yielded, in order. The bulk
 * writer thus reports failures with the caller's own entities.
 *
 * @internal
 */
function fillStream<T>(
  input: Iterable<T> | AsyncIterable<T>,
  filler: CopyFiller<T>,
  chunkSize = FILL_CHUNK,
): { entities: AsyncIterable<T>; take(entity: T): T } {
  const ready: { entity: T; outcome: FillOutcome<T> }[] = [];
  async function* entities(): AsyncGenerator<T> {
    let chunk: T[] = [];
    const flush = async function* (): AsyncGenerator<T> {
      const outcomes = await filler.fill(chunk);
      for (const [i, entity] of chunk.entries()) {
        ready.push({ entity, outcome: outcomes[i] as FillOutcome<T> });
        yield entity;
      }
      chunk = [];
    };
    for await (const entity of input as AsyncIterable<T>) {
      chunk.push(entity);
      if (chunk.length >= chunkSize) yield* flush();
    }
    if (chunk.length > 0) yield* flush();
  }
  return {
    entities: { [Symbol.asyncIterator]: entities },
    take(entity: T): T {
      const next = ready.shift();
      if (next === undefined || next.entity !== entity)
        throw new Error('bigtable-mapper: filled entities were taken out of order');
      if (!next.outcome.ok) throw next.outcome.error;
      return next.outcome.entity;
    },
  };
}

/**
 * The entity a single save writes: itself when it has no `undefined`
 * `@Denormalized` copy, else a copy with them filled from their sources
 * (one batched read per source class), with the copies it filled. Throws
 * `ValidationError` when a source row is missing (unless the copy says
 * `onMissingSource: 'skip'`).
 *
 * @internal
 */
export async function withCopies<T>(
  schema: EntitySchema<T>,
  entity: T,
  sources: SourceResolver,
): Promise<{ readonly entity: T; readonly fills: readonly FilledCopy[] }> {
  if (schema.denormalized.length === 0) return { entity, fills: [] };
  const [outcome] = await new CopyFiller(schema, sources).fill([entity]);
  if (outcome === undefined) return { entity, fills: [] };
  if (!outcome.ok) throw outcome.error;
  return outcome;
}

/**
 * Bulk-save input with copies filled per chunk (see `fillStream`); the input
 * itself when the entity has no `@Denormalized` columns. `changedSources()`,
 * once the writes are confirmed, reads every source again and lists those
 * whose copied values changed since they were read.
 *
 * @internal
 */
export function bulkWithCopies<T>(
  schema: EntitySchema<T>,
  input: Iterable<T> | AsyncIterable<T>,
  sources: SourceResolver,
): { entities: Iterable<T> | AsyncIterable<T>; take(entity: T): T; changedSources(): Promise<object[]> } {
  if (schema.denormalized.length === 0)
    return { entities: input, take: (entity) => entity, changedSources: () => Promise.resolve([]) };
  const filler = new CopyFiller(schema, sources);
  return { ...fillStream(input, filler), changedSources: () => filler.changedSources() };
}
