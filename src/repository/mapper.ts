import { setMaxListeners } from 'node:events';
import type { BigtableDriver } from '../model/driver.js';
import {
  createGoogleCloudDriver,
  GoogleCloudDriver,
  type GoogleCloudDriverOptions,
} from '../driver/google-cloud-driver.js';
import { MapperTelemetry } from '../telemetry/telemetry.js';
import { lintMessage, logPartialWrites, writeLog } from '../telemetry/log-messages.js';
import type { MapperLogger, TelemetryOptions } from '../model/telemetry.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { Constructor } from '../model/declarations.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { desiredTables } from '../schema/desired-schema.js';
import { syncSchema, type SchemaSyncOptions, type SchemaSyncResult } from '../schema/schema-sync.js';
import {
  PROPAGATE_OPTION_NAMES,
  propagateToDependents,
  type MapperPropagationResult,
} from '../denormalize/propagate.js';
import type { PropagateOptions } from '../denormalize/propagate.js';
import type { SourceReader } from '../denormalize/fill-copies.js';
import { checkOptionNames } from '../util/option-names.js';
import { lintEntity } from '../lint/lint-entity.js';
import { MetadataError, ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { Repository } from './repository.js';
import { openMapperWriter } from './mapper-bulk-writer.js';
import type { BulkWriteOptions, BulkWriter } from '../write/bulk-writer.js';
import { Collection } from './collection.js';
import { checkHealth, unansweredReport, type HealthReport } from './health.js';
import { collectionMembers, compileCollectionLayout } from '../key/collection-layout.js';
import type { CollectionMembers } from '../scan/collection-query.js';
import type { PlanShardsOptions, ScanShard } from '../scan/shards.js';
import type { KeyWhere } from '../scan/scan-query.js';
import { RESALT_OPTION_NAMES, resaltRows, type ResaltOptions, type ResaltResult } from './resalt.js';
import { checkPrefixedTable, checkTablePrefix, PrefixedDriver } from './table-prefix.js';
import {
  checkTimeoutMs,
  resolveTimeouts,
  type OperationKind,
  type TimeoutOverrides,
  type TimeoutSettings,
} from '../model/timeouts.js';
import { OperationAbortedError } from '../errors/operation-errors.js';
import {
  runOperation,
  splitOperationOptions,
  checkAppProfileId,
  type OperationContext,
  type OperationOptions,
  OPERATION_OPTION_NAMES,
} from '../operation/operation.js';

/** How long `close()` waits for aborted operations to settle before it closes the client anyway. */
const CLOSE_GRACE_MS = 5_000;
/** The default deadline of `mapper.health()`: a readiness probe answers within seconds. */
const HEALTH_TIMEOUT_MS = 5_000;

/**
 * How a {@link BigtableMapper} reaches Bigtable, plus the entities it manages.
 * Give an existing `Bigtable` client (never closed by the mapper), client
 * options, a loopback emulator host, or a custom driver.
 *
 * @example
 * ```ts
 * const options: BigtableMapperOptions = { emulatorHost: '127.0.0.1:8086', instance: 'dev', entities: [Reading] };
 * ```
 */
export type BigtableMapperOptions = (
  | GoogleCloudDriverOptions
  | {
      /** A driver to use instead of creating one; `close()` leaves it open. */
      driver: BigtableDriver;
    }
) & {
  /** Entities whose tables `sync()` manages (entities passed to `getRepository()` are added). */
  entities?: Constructor[];
  /**
   * Deadlines per kind of operation, overriding {@link DEFAULT_TIMEOUTS} (every call can override them again with its own
   * `timeoutMs`, `attemptTimeoutMs` and `idleTimeoutMs`). Example: `{ scan: { idleMs: 10_000 }, bulkWrite: { totalMs: 1_800_000 } }`.
   */
  timeouts?: TimeoutOverrides;
  /**
   * Put in front of every entity's table id, for one environment or tenant per set of tables on one instance
   * (`'staging_'`: `@Entity({ table: 'readings' })` lives in `staging_readings`). `sync()`, reads, writes and
   * denormalized copies all use the prefixed tables, and plans (`compileSave`, `planScan`, `planPropagation`) show them.
   * Characters from `[-_.a-zA-Z0-9]`, not starting with `-` or `.`; with each table id at most 50 characters. Default `''`.
   */
  tablePrefix?: string;
  /**
   * Runs `lintEntity()` on every entity as it is registered (docs/key-design-tools.md): `warn` emits each
   * error and warning finding as a process warning (type `BigtableMapperLint`, code the rule id), or, with a
   * `logger`, writes one `warn` per entity listing them; `error` also throws `MetadataError` for the first
   * error finding. Suppressions apply. Default `off`.
   */
  lint?: 'off' | 'warn' | 'error';
  /**
   * The time in milliseconds since the Unix epoch that this mapper writes as cell timestamps and reads age-based
   * GC rules against. Default `Date.now`. Useful in tests (a fixed or shifted clock); no result of the library
   * depends on two mappers' clocks agreeing (docs/denormalization.md).
   * @example
   * ```ts
   * new BigtableMapper({ driver, clock: () => Date.UTC(2026, 0, 1) });
   * ```
   */
  clock?: () => number;
  /**
   * OpenTelemetry metrics and traces (docs/observability.md) through the MeterProvider and TracerProvider
   * registered with `@opentelemetry/api`, an optional peer dependency loaded only when this is set: `true` for
   * both, or `{ metrics, traces }`. Metrics need the built-in driver; with a custom `driver` only the operation
   * spans are made. Default off.
   * @example
   * ```ts
   * new BigtableMapper({ instance: 'i', telemetry: true });
   * ```
   */
  telemetry?: boolean | TelemetryOptions;
  /**
   * Where the mapper writes what it does not throw: each retry of an RPC (`debug`; needs the built-in driver),
   * each repository call slower than `slowOperationMs`, each partial write (a call that ends with
   * `PartialWriteError`: entity, table and counts) and, with `lint`, an entity's lint findings (`warn`). A
   * NestJS `Logger`, pino or `console`. `BigtableModule` passes a Nest `Logger` unless told otherwise.
   */
  logger?: MapperLogger;
  /**
   * The app profile every data RPC of this mapper is sent with (routing, priority, Data Boost), unless a call
   * names its own `appProfileId`; with the built-in driver the default is the client's `appProfileId`, else the
   * instance's default profile. Admin RPCs (`sync`) take none.
   * @example
   * ```ts
   * new BigtableMapper({ instance: 'i', appProfileId: 'serving' });
   * ```
   */
  appProfileId?: string;
  /**
   * With `logger`: a repository call that takes this long or longer (milliseconds, retries included; a scan
   * until its last row was taken) is logged with `warn`. Default: none is.
   */
  slowOperationMs?: number;
};

const SYNC_OPTION_NAMES: readonly string[] = [
  ...Object.keys({ dryRun: true, allowDropFamilies: true } satisfies Record<keyof SchemaSyncOptions, true>),
  ...OPERATION_OPTION_NAMES,
];

/** Every option name of {@link BigtableMapperOptions}, each way of reaching Bigtable included; the type keeps it complete. @internal */
export const MAPPER_OPTION_NAMES: readonly string[] = Object.keys({
  bigtable: true,
  clientOptions: true,
  emulatorHost: true,
  projectId: true,
  instance: true,
  driver: true,
  entities: true,
  timeouts: true,
  tablePrefix: true,
  lint: true,
  clock: true,
  telemetry: true,
  logger: true,
  slowOperationMs: true,
  appProfileId: true,
} satisfies Record<BigtableMapperOptions extends infer U ? (U extends unknown ? keyof U : never) : never, true>);

/**
 * Entry point: compiles entities, hands out repositories and keeps the
 * instance's tables in line with the declared families and GC rules.
 *
 * @example
 * ```ts
 * const mapper = new BigtableMapper({ clientOptions: { projectId: 'p' }, instance: 'i', entities: [Reading] });
 * await mapper.sync();
 * const readings = mapper.getRepository(Reading);
 * await mapper.close();
 * ```
 */
export class BigtableMapper {
  /** The driver every repository of this mapper uses (it adds the `tablePrefix` to every table id). */
  readonly driver: BigtableDriver;
  /** The `tablePrefix` option, `''` when there is none. */
  readonly tablePrefix: string;
  /** The driver without the prefix: schema sync names the prefixed tables itself, so its changes show their real ids. */
  readonly #base: BigtableDriver;
  readonly #ownsDriver: boolean;
  readonly #entities = new Map<Function, EntitySchema>();
  readonly #repositories = new Map<Function, Repository<object>>();
  /** The resolved deadlines of every kind of operation. */
  readonly timeouts: Readonly<Record<OperationKind, TimeoutSettings>>;
  readonly #closing = new AbortController();
  readonly #running = new Set<Promise<unknown>>();
  readonly #context: OperationContext;
  #closed: Promise<void> | undefined;
  readonly #lint: 'off' | 'warn' | 'error';
  readonly #telemetry: MapperTelemetry | undefined;
  readonly #logger: MapperLogger | undefined;

  /**
   * Creates the driver (unless `driver` is given) and compiles and registers
   * `entities`. Throws `ValidationError` for invalid connection options or
   * `tablePrefix` (or a prefixed table id over 50 characters), and
   * `MetadataError` for an invalid entity or for two entities that declare the
   * same family of one table with different GC rules, or `timeouts` out of range.
   */
  constructor(options: BigtableMapperOptions) {
    checkOptionNames('BigtableMapper', options, MAPPER_OPTION_NAMES);
    this.timeouts = resolveTimeouts(options.timeouts);
    // Every running operation listens to the closing signal.
    setMaxListeners(0, this.#closing.signal);
    this.tablePrefix = checkTablePrefix(options.tablePrefix);
    const telemetry = checkTelemetry(options.telemetry);
    this.#ownsDriver = !('driver' in options);
    this.#base = 'driver' in options ? options.driver : createGoogleCloudDriver(options);
    const base = this.#base;
    const google = base instanceof GoogleCloudDriver ? base : undefined;
    const log = checkLogger(options.logger, options.slowOperationMs);
    this.#telemetry =
      telemetry === undefined && log === undefined
        ? undefined
        : new MapperTelemetry(telemetry, () => google?.bigtable.appProfileId, undefined, log);
    // A driver passed in keeps a listener it already has.
    if (this.#telemetry !== undefined && google !== undefined && google.attemptListener === undefined)
      google.attemptListener = this.#telemetry.listener;
    this.#context = {
      timeouts: this.timeouts,
      closing: this.#closing.signal,
      track: (settled) => this.#track(settled),
      clock: checkClock(options.clock),
      tablePrefix: this.tablePrefix,
      telemetry:
        this.#telemetry === undefined || log === undefined
          ? this.#telemetry
          : logPartialWrites(this.#telemetry, log.logger, (entity) => this.#tablesOf(entity)),
      ...(options.appProfileId === undefined
        ? {}
        : { appProfileId: checkAppProfileId('BigtableMapper appProfileId', options.appProfileId) }),
    };
    this.#logger = log?.logger;
    this.#lint = checkLintMode(options.lint);
    this.driver = this.tablePrefix === '' ? this.#base : new PrefixedDriver(this.#base, this.tablePrefix);
    for (const entity of options.entities ?? []) this.register(entity);
    desiredTables([...this.#entities.values()]);
  }

  /**
   * Compiles and registers an entity (validating it against the others that share its table), and the sources of its `@Denormalized` copies.
   * @example
   * ```ts
   * mapper.register(Reading)
   * ```
   */
  register<T>(entity: Constructor<T>): EntitySchema<T> {
    const schema = compileEntity(entity);
    if (!this.#entities.has(entity)) {
      checkPrefixedTable(this.tablePrefix, schema.name, schema.table);
      if (this.#lint !== 'off') reportLintFindings(schema, this.#lint, this.tablePrefix, this.#logger);
      desiredTables([...this.#entities.values(), schema]);
      this.#entities.set(entity, schema);
      for (const copy of schema.denormalized) this.register(copy.source);
    }
    return schema;
  }

  /**
   * The repository of an entity (created once per mapper).
   * @example
   * ```ts
   * const readings = mapper.getRepository(Reading);
   * ```
   */
  getRepository<T extends object>(entity: Constructor<T>): Repository<T> {
    const existing = this.#repositories.get(entity);
    if (existing) return existing as unknown as Repository<T>;
    const repository = new Repository<T>(
      this.driver,
      this.register(entity),
      (source) => this.getRepository(source as Constructor<object>) as SourceReader,
      this.#context,
    );
    this.#repositories.set(entity, repository as unknown as Repository<object>);
    return repository;
  }

  /**
   * One bulk writer for entities of every registered class (docs/bulk-writes.md): `add()` takes an
   * instance of any of them, a batch mixes their rows and is sent as one MutateRows call per table,
   * and the caps, outcomes and lifecycle are those of `repo.bulkWriter()`. An entity that is not an
   * instance of a registered class (or has `@Denormalized` copies, or is being re-salted) rejects its
   * `add()` with a `ValidationError`. A table whose call fails as a whole fails only its rows.
   * @example
   * ```ts
   * const writer = mapper.bulkWriter({ flushIntervalMs: 200 });
   * await writer.add(reading);
   * await writer.add(sensor);
   * console.log(await writer.close());
   * ```
   */
  bulkWriter(options?: BulkWriteOptions & OperationOptions): BulkWriter<object> {
    return openMapperWriter(
      this.driver,
      this.#context,
      (entity) => this.#entities.get((entity as { constructor?: Function }).constructor as Function),
      options,
    );
  }

  /**
   * A collection: several entities of one aggregate on one table, read back in one prefix scan
   * (docs/collections.md). `members` maps member names to entity classes: a bare class for a member
   * a prefix holds at most one row of, a class in a one-element array for one it holds many of. The
   * members are registered (so `sync()` creates the union of their families), and checked: they must
   * share the table, the leading key parts (names, types and options, separator and key format) and
   * the salt (whose `on` must lie within those key parts), and each must follow them with a class-level
   * literal key part of its own, its discriminator. A violation is a `MetadataError` naming
   * `Entity.property` and the fix. The result types are inferred from `members`.
   * @example
   * ```ts
   * const aggregate = mapper.collection('customerAggregate', { customer: Customer, orders: [Order], addresses: [Address] });
   * const { customer, orders, addresses, unknownRows } = await aggregate.read({ customerId: 'c1' });
   * // customer: Customer | undefined; orders: Order[]; addresses: Address[]
   * ```
   */
  collection<const M extends CollectionMembers>(name: string, members: M): Collection<M> {
    const layout = compileCollectionLayout(
      name,
      collectionMembers(name, members, (entity) => this.register(entity) as EntitySchema),
    );
    return new Collection<M>(this.driver, layout, this.#context);
  }

  /**
   * Rewrites the copies of `source` (an entity instance, e.g. a `Sensor` just
   * saved) in every registered entity that `@Denormalized` copies from its
   * class; see `Repository.propagate`.
   * @example
   * ```ts
   * const { updated, dependents } = await mapper.propagate(sensor);
   * ```
   */
  propagate(source: object, options?: PropagateOptions): Promise<MapperPropagationResult> {
    try {
      checkOptionNames('BigtableMapper.propagate', options, PROPAGATE_OPTION_NAMES);
    } catch (err) {
      return Promise.reject(err);
    }
    return propagateToDependents(
      [...this.#entities.values()],
      source,
      (schema) => this.getRepository(schema.target as Constructor<object>),
      options,
    );
  }

  /**
   * Whether Bigtable answers for this mapper, for a readiness probe: a read of
   * at most one row from every registered table (the data endpoint, the
   * table's existence and the read permission), or a table listing when no
   * entity is registered. Bounded by `timeoutMs` (default 5 s) and `signal`;
   * it never rejects for a failed check: each table's outcome, with the
   * error's code and message, is in the report.
   *
   * @example
   * ```ts
   * app.get('/ready', async (_req, res) => {
   *   const report = await mapper.health({ timeoutMs: 2_000 });
   *   res.status(report.healthy ? 200 : 503).json(report);
   * });
   * ```
   */
  health(options: OperationOptions = {}): Promise<HealthReport> {
    try {
      checkOptionNames('BigtableMapper.health', options, OPERATION_OPTION_NAMES);
    } catch (err) {
      return Promise.reject(err);
    }
    const tables = [...new Set([...this.#entities.values()].map((schema) => schema.table))].sort();
    return runOperation(
      this.#context,
      'read',
      'BigtableMapper.health',
      { ...options, timeoutMs: options.timeoutMs ?? HEALTH_TIMEOUT_MS },
      (call) => checkHealth(this.driver, tables, call),
      { settleFirst: true },
    ).catch((error: unknown) => unansweredReport(tables, error));
  }

  /**
   * Creates missing tables and families and updates drifted GC rules of every
   * registered entity (with the `tablePrefix`); returns the changes, which
   * name the tables by their real ids. `dryRun` only reports. Nothing is
   * dropped unless `allowDropFamilies` is set.
   *
   * @example
   * ```ts
   * const { changes } = await mapper.sync({ dryRun: true });
   * for (const c of changes) console.log(c.description);
   * ```
   */
  sync(options: SchemaSyncOptions & OperationOptions = {}): Promise<SchemaSyncResult> {
    try {
      checkOptionNames('BigtableMapper.sync', options, SYNC_OPTION_NAMES);
    } catch (err) {
      return Promise.reject(err);
    }
    const [timing, sync] = splitOperationOptions(options);
    return runOperation(this.#context, 'admin', 'BigtableMapper.sync', timing, (call) =>
      syncSchema(this.#base, [...this.#entities.values()], sync, call, this.tablePrefix),
    );
  }

  /**
   * Re-salts an entity online: moves every row of the layout declared in `@Salt({ previous })` to the declared
   * one, in batches (copy where no new row exists, then delete the old rows), reporting a checkpoint after each
   * batch. Reads, scans and deletes see both layouts meanwhile; writes go to the new one. Resume after a crash
   * with `resumeFrom`; re-running is safe. With `shard`, it moves only that part of the old buckets, so
   * several runs can share the work. When `remaining` is 0 (in every part), remove `previous` from `@Salt`.
   *
   * @example
   * ```ts
   * const result = await mapper.resalt(Event, { timeoutMs: 3_600_000, onProgress: (p) => save(p.checkpoint) });
   * console.log(result.buckets, result.remaining); // remaining 0: drop `previous`
   * // or as 4 machines, each moving its part of the old buckets:
   * await mapper.resalt(Event, { shard: { index: Number(process.env.CLOUD_RUN_TASK_INDEX), count: 4 } });
   * ```
   */
  resalt(entity: Constructor, options: ResaltOptions & OperationOptions = {}): Promise<ResaltResult> {
    try {
      checkOptionNames('BigtableMapper.resalt', options, [...OPERATION_OPTION_NAMES, ...RESALT_OPTION_NAMES]);
    } catch (err) {
      return Promise.reject(err);
    }
    const schema = this.register(entity);
    const [timing, resalt] = splitOperationOptions(options);
    return runOperation(this.#context, 'bulkWrite', `${schema.name}.resalt`, timing, (call) =>
      resaltRows(this.driver, schema, resalt, call),
    );
  }

  /**
   * Cuts a query of `entity` into `shards` tablet-aligned pieces for workers: see {@link Repository.planShards}.
   * Each shard is a JSON object; a worker reads its rows with `repo.iterate({ where, shard })`, and the shards
   * together read every row of the query exactly once.
   *
   * @example
   * ```ts
   * const shards = await mapper.planShards(Reading, { shards: 8 });
   * await Promise.all(shards.map((shard) => queue.send(JSON.stringify(shard))));
   * ```
   */
  planShards<T extends object>(
    entity: Constructor<T>,
    options: PlanShardsOptions<KeyWhere<T>> & OperationOptions,
  ): Promise<ScanShard[]> {
    return this.getRepository(entity).planShards(options);
  }

  /**
   * Settles when the `telemetry` option's `@opentelemetry/api` has loaded (or is known to be missing):
   * calls started before then are not measured.
   * @internal
   */
  telemetryReady(): Promise<void> {
    return this.#telemetry?.ready ?? Promise.resolve();
  }

  /**
   * Cancels every operation still running on this mapper's repositories
   * (open scans and iterators included: their pending reads reject with
   * `OperationAbortedError`), waits for them to settle (at most 5 s), then
   * closes the driver the mapper created (which closes the client only if the
   * driver created it); a driver passed in as `{ driver }` is left open.
   * Calls made after `close()` reject with `OperationAbortedError`.
   * Idempotent: later calls return the same promise.
   * @example
   * ```ts
   * await mapper.close();
   * ```
   */
  close(): Promise<void> {
    this.#closed ??= this.#shutDown();
    return this.#closed;
  }

  async #shutDown(): Promise<void> {
    this.#closing.abort(new OperationAbortedError('BigtableMapper', 'the mapper was closed'));
    if (this.#running.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
      await Promise.race([Promise.allSettled([...this.#running]), grace]);
      clearTimeout(timer);
    }
    if (this.#ownsDriver) await this.driver.close();
  }

  /** The real ids (with the `tablePrefix`) of the tables of the registered entities named `entity`, for a log message. */
  #tablesOf(entity: string): string | undefined {
    const tables = new Set<string>();
    for (const schema of this.#entities.values())
      if (schema.name === entity) tables.add(`${this.tablePrefix}${schema.table}`);
    return tables.size === 0 ? undefined : [...tables].join(', ');
  }

  #track<R>(settled: Promise<R>): Promise<R> {
    this.#running.add(settled);
    const forget = (): void => {
      this.#running.delete(settled);
    };
    settled.then(forget, forget);
    return settled;
  }
}

function checkLintMode(mode: unknown): 'off' | 'warn' | 'error' {
  if (mode === undefined) return 'off';
  if (mode === 'off' || mode === 'warn' || mode === 'error') return mode;
  throw new ValidationError(
    `BigtableMapper: lint must be 'off', 'warn' or 'error', got ${preview(mode)}. Fix: use one of them.`,
    {
      option: 'lint',
    },
  );
}

/**
 * The `lint` option at registration: findings as process warnings (or one `warn` of the logger, when there is
 * one), and with `error` the first error finding thrown.
 */
function reportLintFindings(
  schema: EntitySchema,
  mode: 'warn' | 'error',
  tablePrefix: string,
  logger: MapperLogger | undefined,
): void {
  const findings = lintEntity(schema).filter((f) => f.severity !== 'info');
  if (logger !== undefined) {
    if (findings.length > 0)
      writeLog(logger, 'warn', lintMessage(schema.name, `${tablePrefix}${schema.table}`, findings));
  } else {
    for (const f of findings) {
      process.emitWarning(`${f.message}. Fix: ${f.fix}`, { type: 'BigtableMapperLint', code: f.code });
    }
  }
  const error = findings.find((f) => f.severity === 'error');
  if (mode === 'error' && error !== undefined) {
    throw new MetadataError(schema.name, error.property, `fails lint rule ${error.code}: ${error.message}`, error.fix);
  }
}

function checkLogger(
  logger: unknown,
  slowOperationMs: unknown,
): { logger: MapperLogger; slowOperationMs: number | undefined } | undefined {
  const slow = slowOperationMs === undefined ? undefined : checkTimeoutMs('slowOperationMs', slowOperationMs);
  if (logger === undefined) {
    if (slow !== undefined)
      throw new ValidationError('BigtableMapper slowOperationMs needs a logger. Fix: pass logger too, or omit it.', {
        option: 'slowOperationMs',
      });
    return undefined;
  }
  const methods = ['debug', 'log', 'warn', 'error'] as const;
  if (
    typeof logger !== 'object' ||
    logger === null ||
    !methods.some((m) => typeof (logger as Record<string, unknown>)[m] === 'function')
  )
    throw new ValidationError(
      `BigtableMapper logger must have debug, log, warn or error methods, got ${preview(logger)}. Fix: pass a NestJS Logger, pino or console.`,
      { option: 'logger' },
    );
  return { logger: logger as MapperLogger, slowOperationMs: slow };
}

/** The longest row-key prefix telemetry puts on a span. */
const MAX_KEY_PREFIX_BYTES = 64;

function checkTelemetry(telemetry: unknown): TelemetryOptions | undefined {
  if (telemetry === undefined || telemetry === false) return undefined;
  if (telemetry === true) return {};
  if (typeof telemetry === 'object' && telemetry !== null && !Array.isArray(telemetry)) {
    checkOptionNames('BigtableMapper telemetry', telemetry, ['metrics', 'traces', 'rowKeyPrefixBytes']);
    const { metrics, traces, rowKeyPrefixBytes } = telemetry as Record<string, unknown>;
    if (
      rowKeyPrefixBytes !== undefined &&
      (typeof rowKeyPrefixBytes !== 'number' ||
        !Number.isInteger(rowKeyPrefixBytes) ||
        rowKeyPrefixBytes < 0 ||
        rowKeyPrefixBytes > MAX_KEY_PREFIX_BYTES)
    )
      throw new ValidationError(
        `BigtableMapper telemetry.rowKeyPrefixBytes must be an integer from 0 to ${MAX_KEY_PREFIX_BYTES}, got ${preview(rowKeyPrefixBytes)}. Fix: pass e.g. rowKeyPrefixBytes: 8, or leave it out to keep keys off spans.`,
        { option: 'telemetry.rowKeyPrefixBytes' },
      );
    if (
      (metrics === undefined || typeof metrics === 'boolean') &&
      (traces === undefined || typeof traces === 'boolean')
    )
      return {
        metrics: metrics !== false,
        traces: traces !== false,
        ...(rowKeyPrefixBytes === undefined ? {} : { rowKeyPrefixBytes: rowKeyPrefixBytes as number }),
      };
  }
  throw new ValidationError(
    `BigtableMapper telemetry must be true, false or { metrics?: boolean, traces?: boolean, rowKeyPrefixBytes?: number }, got ${preview(telemetry)}. Fix: pass telemetry: true.`,
    { option: 'telemetry' },
  );
}

function checkClock(clock: unknown): () => number {
  if (clock === undefined) return () => Date.now();
  if (typeof clock !== 'function')
    throw new ValidationError(
      `BigtableMapper: clock must be a function returning milliseconds since the epoch, got ${typeof clock}. Fix: pass e.g. clock: () => Date.now()`,
      { option: 'clock' },
    );
  return clock as () => number;
}
