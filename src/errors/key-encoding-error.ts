import { BigtableMapperError, preview } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/**
 * A row-key component value cannot be encoded (wrong type, NaN, negative for
 * an unsigned part, too wide, invalid Date, empty string, key over 4 KiB) or a
 * stored key cannot be decoded. Thrown before anything is sent.
 *
 * @example
 * ```ts
 * repo.compileSave(Object.assign(new Reading(), { sensorId: '', ts: new Date() }));
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
