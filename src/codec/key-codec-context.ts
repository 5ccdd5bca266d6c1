import { KeyEncodingError } from '../errors/errors.js';

/**
 * The entity and property a key codec was built for, so that its errors name
 * `Entity.property`.
 * @internal
 */
export interface KeyCodecContext {
  readonly entity: string;
  readonly property: string;
}

/**
 * Fix offered when stored key text does not decode.
 * @internal
 */
export const DECODE_FIX =
  'check that the row was written with the same @KeyPart declarations (type, width, descending, format) and that the scan covers only rows of this entity';

/**
 * Builds a `KeyEncodingError` for the codec's property.
 * @internal
 */
export function keyError(ctx: KeyCodecContext, value: unknown, reason: string, fix: string): KeyEncodingError {
  return new KeyEncodingError(ctx.entity, ctx.property, value, reason, fix);
}

/**
 * Throws unless `value` is a `Date` holding a valid time; returns its epoch milliseconds.
 * @internal
 */
export function validTime(ctx: KeyCodecContext, value: unknown): number {
  if (!(value instanceof Date))
    throw keyError(ctx, value, 'is not a valid timestamp key component: expected a Date', 'pass a Date object');
  const ms = value.getTime();
  if (Number.isNaN(ms))
    throw keyError(ctx, value, 'is not a valid timestamp key component: the Date is invalid', 'pass a valid Date');
  return ms;
}
