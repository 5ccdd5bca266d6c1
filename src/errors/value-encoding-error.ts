import { BigtableMapperError, preview } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/**
 * A cell value does not fit its column's declared type (for example a string
 * in an `int` column, or a fractional number in an `int` column). Thrown
 * before anything is sent, so no silently corrupted cell is ever written.
 *
 * @example
 * ```ts
 * // @Column({ family: 'm', type: 'int' }) count!: number;
 * repo.compileSave(Object.assign(new Counter(), { id: 'a', count: 1.5 }));
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
