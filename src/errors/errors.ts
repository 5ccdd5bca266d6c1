import { BigtableMapperError, ErrorCode, preview, type ErrorCodeValue } from './bigtable-mapper-error.js';

/**
 * An entity's decorators are inconsistent. Thrown by `compileEntity()` (or by a
 * decorator for purely local mistakes); the message names `Entity.property`
 * and says how to fix it.
 *
 * @example
 * ```ts
 * try { compileEntity(Reading); }
 * catch (err) { if (err instanceof MetadataError) console.error(err.message); }
 * // "Reading.temperature: column uses family "m" which is not declared. Fix: add @Family('m') to Reading."
 * ```
 */
export class MetadataError extends BigtableMapperError {
  /** The entity class name. */
  readonly entity: string;
  /** The property at fault, when there is one. */
  readonly property: string | undefined;

  constructor(entity: string, property: string | undefined, problem: string, fix: string) {
    const where = property === undefined ? entity : `${entity}.${property}`;
    super(ErrorCode.Metadata, `${where}: ${problem}. Fix: ${fix}`, { details: { entity, property, problem, fix } });
    this.entity = entity;
    this.property = property;
  }
}

/**
 * A row-key component value cannot be encoded (wrong type, NaN, negative for
 * an unsigned part, too wide, invalid Date, empty string, key over 4 KiB) or a
 * stored key cannot be decoded. Thrown before anything is sent.
 *
 * @example
 * ```ts
 * repo.compileSave(repo.create({ sensorId: '', ts: new Date() }));
 * // KeyEncodingError: Reading.sensorId: "" is not a valid string key component: must not be empty ...
 * ```
 */
export class KeyEncodingError extends BigtableMapperError {
  constructor(entity: string, property: string, value: unknown, reason: string, fix?: string) {
    const tail = fix ? ` Fix: ${fix}` : '';
    super(ErrorCode.KeyEncoding, `${entity}.${property}: ${preview(value)} ${reason}.${tail}`, {
      details: { entity, property, value: preview(value), reason },
    });
  }
}

/**
 * A cell value does not fit its column's declared type (for example a string
 * in an `int` column, or a fractional number in an `int` column). Thrown
 * before anything is sent, so no silently corrupted cell is ever written.
 *
 * @example
 * ```ts
 * // @Column({ family: 'm', type: 'int' }) count!: number;
 * repo.compileSave(repo.create({ id: 'a', count: 1.5 }));
 * // ValueEncodingError: Counter.count: 1.5 is not a valid int: must be a safe integer ...
 * ```
 */
export class ValueEncodingError extends BigtableMapperError {
  constructor(entity: string, property: string, value: unknown, reason: string) {
    super(ErrorCode.ValueEncoding, `${entity}.${property}: ${preview(value)} ${reason}`, {
      details: { entity, property, value: preview(value), reason },
    });
  }
}

/**
 * One problem found in a value: by a `validate` validator of `@Column` or
 * `@KeyPart`, or by `fromJson` in a JSON body.
 *
 * @example
 * ```ts
 * const issue: ValidationIssue = { property: 'address', path: 'Person.address.city', message: 'Required' };
 * ```
 */
export interface ValidationIssue {
  /** The entity property the value belongs to. */
  readonly property: string;
  /**
   * Where: `Entity.property`, then the path inside the value as the validator
   * gave it (`Person.address.city`, `Person.tags[2]`, `Reading.temperature[0].value`).
   */
  readonly path: string;
  /** What is wrong, in the validator's words (at most 200 characters). */
  readonly message: string;
}

/**
 * An argument to a public method is invalid: an unknown property in a query or
 * `select`, a malformed cursor, bad options, or values a `validate` validator
 * refuses (then `issues` lists each problem with its path). Names the argument
 * and the fix.
 *
 * @example
 * ```ts
 * await repo.findOne({ sensorId: 's1' }); // missing `ts`
 * // ValidationError: Reading: key is missing "ts". Fix: pass every key part ...
 * try { await people.save(person); }
 * catch (err) { if (err instanceof ValidationError) console.log(err.issues); } // [{ property: 'email', path: 'Person.email', message: 'Invalid email address' }]
 * ```
 */
export class ValidationError extends BigtableMapperError {
  /**
   * The problems found in the values, each with its path: every issue of
   * every validator that failed (at most 100; `details.issuesOmitted` counts
   * the rest). Empty when the error is about an argument, not about values.
   */
  readonly issues: readonly ValidationIssue[];

  /**
   * @param message - What is wrong, naming the argument and the fix.
   * @param details - Structured facts (entity, property, option ...).
   * @param issues - The problems found in the values; also given as `details.issues`.
   */
  constructor(message: string, details: Record<string, unknown> = {}, issues: readonly ValidationIssue[] = []) {
    const listed = Object.freeze(issues.map((issue) => Object.freeze({ ...issue })));
    super(ErrorCode.Validation, message, { details: listed.length === 0 ? details : { ...details, issues: listed } });
    this.issues = listed;
  }
}

/**
 * `findOneOrFail` found no row for the key. The message shows the key as
 * given (its property values); `details` holds them as `key`, with the
 * encoded row key as `rowKey` (without the salt prefix).
 *
 * @example
 * ```ts
 * try { await repo.findOneOrFail({ userId: 'u1', at }); }
 * catch (err) { if (err instanceof EntityNotFoundError) reply.status(404); }
 * // EntityNotFoundError: Visit: no row with key { userId: "u1", at: Date(2026-01-02T03:04:05.006Z) } (row key "u1#8232676954993")
 * ```
 */
export class EntityNotFoundError extends BigtableMapperError {
  /**
   * @param entity - The entity class name.
   * @param key - The key properties and their values, in key order.
   * @param rowKey - The row key as stored, salt included (as `key decode` reads it).
   */
  constructor(entity: string, key: Readonly<Record<string, unknown>>, rowKey: string) {
    const parts = Object.entries(key).map(([name, value]) => `${name}: ${preview(value)}`);
    super(
      ErrorCode.NotFound,
      `${entity}: no row with key { ${parts.join(', ')} } (row key ${JSON.stringify(rowKey)})`,
      { details: { entity, key: Object.freeze({ ...key }), rowKey } },
    );
  }
}

/**
 * The Bigtable client or server failed. Keeps the gRPC status code (when there
 * is one) and the original error as `cause`. A read or write on a table that
 * does not exist is the subclass {@link TableNotFoundError}.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof DriverError && err.grpcCode === 14) console.error('Bigtable unavailable'); }
 * ```
 */
export class DriverError extends BigtableMapperError {
  /** gRPC status code (5 NOT_FOUND, 14 UNAVAILABLE, ...), when known. */
  readonly grpcCode: number | undefined;

  /**
   * @param operation - The call that failed, e.g. `mutateRow "readings" row "s1#…"`.
   * @param cause - The client's error.
   * @param grpcCode - The gRPC status code; read from `cause` when omitted.
   * @param described - For subclasses: their own code, message and details.
   */
  constructor(
    operation: string,
    cause: unknown,
    grpcCode?: number,
    described?: { code: ErrorCodeValue; message: string; details: Record<string, unknown> },
  ) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const code = grpcCode ?? extractGrpcCode(cause);
    super(
      described?.code ?? ErrorCode.Driver,
      described?.message ?? `${operation} failed${code === undefined ? '' : ` (gRPC ${code})`}: ${message}`,
      { cause, details: { operation, grpcCode: code, ...described?.details } },
    );
    this.grpcCode = code;
  }
}

/**
 * A read or write named a table that does not exist on the instance (the
 * server answered gRPC 5 NOT_FOUND): the tables were never created, or the
 * mapper points at another instance, project id or `tablePrefix` than the one
 * that holds them. `mapper.sync()` creates the tables of every registered
 * entity. A {@link DriverError} with `grpcCode` 5 and code `TABLE_NOT_FOUND`.
 *
 * @example
 * ```ts
 * try { await repo.save(reading); }
 * catch (err) { if (err instanceof TableNotFoundError) console.error(`create ${err.table}: run mapper.sync()`); }
 * // TableNotFoundError: mutateRow "readings" row "s1#…": table "readings" does not exist; run mapper.sync() …
 * ```
 */
export class TableNotFoundError extends DriverError {
  /** The table id as sent (with the mapper's `tablePrefix`). */
  readonly table: string;

  constructor(operation: string, table: string, cause?: unknown) {
    super(operation, cause, 5, {
      code: ErrorCode.TableNotFound,
      message: `${operation}: table ${JSON.stringify(table)} does not exist; run mapper.sync() to create it. Fix: sync the entities' tables before reading or writing, or check the instance, the project id and the mapper's tablePrefix`,
      details: { table },
    });
    this.table = table;
  }
}

/** Reads a numeric gRPC `code` from an unknown error value. */
export function extractGrpcCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * Schema sync could not read or apply a change; names the table and family.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof SchemaSyncError) console.error(err.details.table); }
 * ```
 */
export class SchemaSyncError extends BigtableMapperError {
  constructor(message: string, details: Record<string, unknown>, cause?: unknown) {
    super(ErrorCode.SchemaSync, message, { details, cause });
  }
}

/**
 * The Bigtable emulator binary is missing or failed to start. The message says
 * how to install it.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof EmulatorError) console.error(err.message); }
 * ```
 */
export class EmulatorError extends BigtableMapperError {
  constructor(message: string, cause?: unknown) {
    super(ErrorCode.Emulator, message, { cause });
  }
}
