/**
 * Stable machine-readable codes carried by every {@link BigtableMapperError}.
 *
 * @example
 * ```ts
 * if (err instanceof BigtableMapperError && err.code === ErrorCode.KeyEncoding) { ... }
 * ```
 */
export const ErrorCode = {
  /** A decorator declaration is invalid (found while compiling an entity). */
  Metadata: 'METADATA_INVALID',
  /** A row-key component could not be encoded or decoded. */
  KeyEncoding: 'KEY_ENCODING',
  /** A cell value could not be encoded or decoded. */
  ValueEncoding: 'VALUE_ENCODING',
  /** An argument to a public method is invalid (query, options, entity shape). */
  Validation: 'VALIDATION',
  /** `findOneOrFail` found no row. */
  NotFound: 'NOT_FOUND',
  /** Some rows of a bulk write failed; the others were persisted. */
  PartialWrite: 'PARTIAL_WRITE',
  /** The Bigtable client or server reported an error. */
  Driver: 'DRIVER',
  /** A read or write named a table that does not exist (gRPC 5 NOT_FOUND): `mapper.sync()` creates it. */
  TableNotFound: 'TABLE_NOT_FOUND',
  /** Schema sync could not compare or apply a change. */
  SchemaSync: 'SCHEMA_SYNC',
  /** The Bigtable emulator could not be found or started. */
  Emulator: 'EMULATOR',
  /** An operation ran past its deadline (total, per attempt, or idle stream); every RPC it started was cancelled. */
  DeadlineExceeded: 'DEADLINE_EXCEEDED',
  /** An operation was aborted (its `AbortSignal`, or `mapper.close()`); every RPC it started was cancelled. */
  Aborted: 'ABORTED',
  /** The Bigtable endpoint could not be reached (nothing listening, refused, unresolvable). */
  Unreachable: 'UNREACHABLE',
  /** A write that is not idempotent (an `add()` to aggregate cells) was cut mid-flight: it may or may not have been applied. */
  OutcomeUnknown: 'OUTCOME_UNKNOWN',
} as const;

/**
 * Union of all {@link ErrorCode} values.
 * @example
 * ```ts
 * const c: ErrorCodeValue = 'NOT_FOUND';
 * ```
 * @inline
 */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Base class of every error thrown by bigtable-mapper. Carries a stable `code`,
 * an optional `cause` and structured `details`.
 *
 * @example
 * ```ts
 * try { await repo.save(reading); }
 * catch (err) { if (err instanceof BigtableMapperError) console.error(err.code, err.details); }
 * ```
 */
export class BigtableMapperError extends Error {
  /** Stable code, see {@link ErrorCode}. */
  readonly code: ErrorCodeValue;
  /** Structured facts about the failure (entity, property, value preview...). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCodeValue,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = Object.freeze({ ...(options.details ?? {}) });
  }
}

/**
 * Short, safe preview of a value for error messages. Numbers JSON cannot
 * spell print as JavaScript does (`NaN`, `Infinity`, `-Infinity`), also
 * inside arrays and objects, never as JSON's `null`.
 */
export function preview(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'number') text = String(value);
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (value instanceof Date)
    text = Number.isNaN(value.getTime()) ? 'Invalid Date' : `Date(${value.toISOString()})`;
  else if (Buffer.isBuffer(value))
    text = `<Buffer ${value.subarray(0, 16).toString('hex')}${value.length > 16 ? '…' : ''}>`;
  else if (typeof value === 'function') text = `function ${value.name || '(anonymous)'}`;
  else {
    try {
      text = stringifyWithNonFinite(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * `JSON.stringify`, with `NaN`, `Infinity` and `-Infinity` nested in the
 * value written as those words instead of `null`: they are swapped for a
 * marker string (a fresh random tag behind an invisible separator, which no
 * real value holds in practice), then the quoted markers for the words.
 */
function stringifyWithNonFinite(value: unknown): string | undefined {
  const tag = `\u2063nonfinite-${Math.random().toString(36).slice(2)}:`;
  let marked = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'number' || Number.isFinite(v)) return v;
    marked = true;
    return `${tag}${String(v)}`;
  }) as string | undefined;
  if (!marked || text === undefined) return text;
  let out = text;
  for (const word of ['-Infinity', 'Infinity', 'NaN']) out = out.split(JSON.stringify(`${tag}${word}`)).join(word);
  return out;
}
