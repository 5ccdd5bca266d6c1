import { ValueEncodingError } from '../errors/errors.js';

/**
 * The entity and column property a value codec was built for, so that its
 * errors name `Entity.property`.
 * @internal
 */
export interface ValueCodecContext {
  readonly entity: string;
  readonly property: string;
}

/**
 * Builds a `ValueEncodingError`; `reason` should end with `Fix: …`.
 * @internal
 */
export function valueError(ctx: ValueCodecContext, value: unknown, reason: string): ValueEncodingError {
  return new ValueEncodingError(ctx.entity, ctx.property, value, reason);
}

/**
 * Throws `ValueEncodingError` unless the stored cell has exactly `length` bytes.
 * @internal
 */
export function expectLength(ctx: ValueCodecContext, bytes: Buffer, length: number, type: string): void {
  if (bytes.length !== length) {
    throw valueError(
      ctx,
      bytes,
      `is not a valid stored ${type} value: expected ${length} byte${length === 1 ? '' : 's'}, got ${bytes.length}. Fix: check the column's declared type matches how the cell was written`,
    );
  }
}
