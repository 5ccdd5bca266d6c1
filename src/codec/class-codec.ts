import { instanceToPlain, plainToInstance } from 'class-transformer';
import type { Constructor } from '../model/declarations.js';
import type { ValueCodec } from './codec-contracts.js';
import { valueError, type ValueCodecContext } from './value-codec-context.js';
import { parseJsonBytes, toJsonBytes } from './value-codec-json.js';

/**
 * Class-typed cells: `instanceToPlain` then UTF-8 JSON; decoding parses the
 * JSON and hydrates it with `plainToInstance(cls, …)`, so nested
 * class-transformer decorators (`@Type`, `@Transform`, `@Exclude`) apply.
 * Arrays of instances round-trip as arrays.
 * @internal
 */
export function createClassValueCodec(ctx: ValueCodecContext, cls: Constructor): ValueCodec {
  const expect = `Fix: pass an instance of ${cls.name || 'the class'} (or a plain object of its shape)`;
  return Object.freeze({
    type: 'class',
    encode(value: unknown): Buffer {
      if (typeof value !== 'object' || value === null) {
        throw valueError(ctx, value, `is not a valid ${cls.name || 'class'} value: expected an object. ${expect}`);
      }
      return toJsonBytes(ctx, instanceToPlain(value), 'class');
    },
    decode(bytes: Buffer): unknown {
      const plain = parseJsonBytes(ctx, bytes, 'class');
      if (typeof plain !== 'object' || plain === null) {
        throw valueError(
          ctx,
          bytes,
          `is not a valid stored ${cls.name || 'class'} value: the JSON is not an object or array. ${expect}`,
        );
      }
      return plainToInstance(cls, plain);
    },
  } as const);
}
