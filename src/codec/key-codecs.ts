import type { KeyPartOptions } from '../model/declarations.js';
import type { KeyComponentCodec } from './codec-contracts.js';
import { resolveKeyOptions } from './key-codec-options.js';
import { createBigintCodec, createIntCodec, createUintCodec } from './key-codec-numeric.js';
import { createStringCodec } from './key-codec-string.js';
import { createEpochTimestampCodec, createIsoTimestampCodec } from './key-codec-timestamp.js';

/**
 * Builds the text codec of one row-key component (docs/row-key-design.md). Validates the
 * options first and throws `MetadataError` for impossible combinations
 * (descending strings or ISO timestamps, bad widths, `format` on a
 * non-timestamp, unknown types, an ISO timestamp with `-`, `:` or `.` as
 * separator). The codec's `encode`/`decode` throw `KeyEncodingError` naming
 * `Entity.property`.
 *
 * | type | text |
 * |---|---|
 * | `string` | UTF-8, `%`→`%25`, separator→`%XX` |
 * | `uint` | zero-padded, `width` digits (default 16, 1–20) |
 * | `int` | `value + 2^53`, 17 digits |
 * | `bigint` | `value + 2^63`, 20 digits |
 * | `timestamp` `iso` | `toISOString()` |
 * | `timestamp` `epoch-ms` / `epoch-s` | zero-padded, width 13 / 10 (at most 20) |
 *
 * Descending numeric and epoch components store `10^width − 1 − v`.
 * @internal
 */
export function createKeyCodec(
  entity: string,
  property: string,
  options: KeyPartOptions,
  separator: string,
): KeyComponentCodec {
  const resolved = resolveKeyOptions(entity, property, options, separator);
  const ctx = { entity, property };
  switch (resolved.type) {
    case 'string':
      return createStringCodec(ctx, separator);
    case 'uint':
      return createUintCodec(ctx, resolved);
    case 'int':
      return createIntCodec(ctx, resolved);
    case 'bigint':
      return createBigintCodec(ctx, resolved);
    case 'timestamp':
      return resolved.format === 'iso' ? createIsoTimestampCodec(ctx) : createEpochTimestampCodec(ctx, resolved);
  }
}
