import { BigtableMapperError } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/** One entity that a bulk write could not persist. @example `{ index: 3, rowKey: 's1#…', grpcCode: 13, message: 'unknown family' }` */
export interface WriteFailure<T = unknown> {
  /** Position of the entity in the input. */
  readonly index: number;
  /** The entity as given. */
  readonly entity: T;
  /** Physical row key (empty when the entity could not be encoded). */
  readonly rowKey: string;
  /** gRPC status code, or undefined when the entity was rejected before sending. */
  readonly grpcCode: number | undefined;
  /** Why it failed. */
  readonly message: string;
  /** The underlying error, when there is one. */
  readonly cause?: unknown;
}

/**
 * Some entities of a bulk write failed; every other entity was persisted.
 * `failures` lists each failed entity with its gRPC code and message. It is
 * not enumerable, so logging the error (`console.error(err)`) prints the
 * message, which names the first five failures, rather than every failed
 * entity with its cause.
 *
 * @example
 * ```ts
 * try { await repo.saveMany(readings); }
 * catch (err) {
 *   if (err instanceof PartialWriteError) for (const f of err.failures) console.error(f.index, f.message);
 * }
 * ```
 */
export class PartialWriteError<T = unknown> extends BigtableMapperError {
  /** Every failed entity, in input order. */
  declare readonly failures: readonly WriteFailure<T>[];
  /** How many entities were persisted. */
  readonly succeeded: number;

  constructor(entity: string, failures: WriteFailure<T>[], succeeded: number) {
    const sorted = [...failures].sort((a, b) => a.index - b.index);
    const lines = sorted.slice(0, 5).map((f) => `  #${f.index} ${f.rowKey || '(no key)'}: ${f.grpcCode === undefined ? '' : `gRPC ${f.grpcCode} `}${f.message}`);
    const more = sorted.length > 5 ? `\n  ... and ${sorted.length - 5} more` : '';
    super(ErrorCode.PartialWrite, `${entity}: ${sorted.length} of ${sorted.length + succeeded} writes failed; the others were persisted.\n${lines.join('\n')}${more}`, {
      details: { entity, failed: sorted.length, succeeded },
    });
    Object.defineProperty(this, 'failures', { value: Object.freeze(sorted), enumerable: false, writable: false, configurable: false });
    this.succeeded = succeeded;
  }
}
