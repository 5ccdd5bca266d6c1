import type { ColumnScalarType, Constructor } from '../model/declarations.js';
import type { ValueCodec } from './codec-contracts.js';
import { MetadataError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import type { ValueCodecContext } from './value-codec-context.js';
import { createClassValueCodec } from './class-codec.js';
import { createBigintValueCodec, createDateValueCodec, createIntValueCodec } from './value-codec-int64.js';
import { createJsonValueCodec } from './value-codec-json.js';
import {
  createBooleanValueCodec,
  createBytesValueCodec,
  createFloatValueCodec,
  createStringValueCodec,
} from './value-codec-scalars.js';

const SCALAR_CODECS: Readonly<Record<ColumnScalarType, (ctx: ValueCodecContext) => ValueCodec>> = {
  string: createStringValueCodec,
  int: createIntValueCodec,
  float: createFloatValueCodec,
  boolean: createBooleanValueCodec,
  date: createDateValueCodec,
  bigint: createBigintValueCodec,
  json: createJsonValueCodec,
  bytes: createBytesValueCodec,
};

/**
 * Builds the cell codec of a column. Every codec returns a
 * `Buffer`, so no JS value ever reaches the client's lossy encoder.
 *
 * | type | bytes |
 * |---|---|
 * | `string` | UTF-8 |
 * | `int` | int64 big-endian (safe integers; compatible with increments) |
 * | `float` | float64 big-endian |
 * | `boolean` | one byte `00`/`01` |
 * | `date` | int64 big-endian epoch milliseconds |
 * | `bigint` | int64 big-endian |
 * | `json` | UTF-8 JSON |
 * | `bytes` | the bytes |
 * | a class | UTF-8 JSON of `instanceToPlain`, hydrated with `plainToInstance` |
 *
 * Encoding a value of the wrong shape, or decoding malformed bytes, throws
 * `ValueEncodingError` naming `Entity.property`; an unknown type throws `MetadataError`.
 * @internal
 */
export function createValueCodec(entity: string, property: string, type: ColumnScalarType | Constructor): ValueCodec {
  const ctx = { entity, property };
  if (typeof type === 'function') return createClassValueCodec(ctx, type);
  if (typeof type === 'string' && Object.hasOwn(SCALAR_CODECS, type)) return SCALAR_CODECS[type](ctx);
  throw new MetadataError(
    entity,
    property,
    `unknown column type ${preview(type)}`,
    `use one of ${Object.keys(SCALAR_CODECS)
      .map((t) => `'${t}'`)
      .join(', ')}, or a class (stored as JSON with class-transformer)`,
  );
}
