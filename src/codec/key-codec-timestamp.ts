import type { KeyComponentCodec } from './codec-contracts.js';
import type { ResolvedKeyOptions } from './key-codec-options.js';
import { DECODE_FIX, keyError, validTime, type KeyCodecContext } from './key-codec-context.js';
import { createDigitsCodec } from './key-codec-digits.js';

/** Largest epoch milliseconds a `Date` can hold. */
const MAX_DATE_MS = 8_640_000_000_000_000n;
const MAX_DATE_MS_NUMBER = Number(MAX_DATE_MS);
const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * `timestamp` key component in ISO-8601 UTC with milliseconds (`2023-05-01T12:00:00.000Z`).
 * Years must be 0000–9999 so that text order equals time order.
 * @internal
 */
export function createIsoTimestampCodec(ctx: KeyCodecContext): KeyComponentCodec {
  return Object.freeze({
    type: 'timestamp',
    width: undefined,
    descending: false,
    format: 'iso',
    encode(value: unknown): string {
      validTime(ctx, value);
      const year = (value as Date).getUTCFullYear();
      if (year < 0 || year > 9999) {
        throw keyError(
          ctx,
          value,
          'is not a valid ISO timestamp key component: the year is outside 0000–9999, where text order would break',
          'pass a date between the years 0 and 9999',
        );
      }
      return (value as Date).toISOString();
    },
    decode(text: string): unknown {
      const date = new Date(ISO_SHAPE.test(text) ? text : Number.NaN);
      if (Number.isNaN(date.getTime()) || date.toISOString() !== text) {
        throw keyError(
          ctx,
          text,
          'is not a valid encoded ISO timestamp key component (expected YYYY-MM-DDTHH:mm:ss.sssZ)',
          DECODE_FIX,
        );
      }
      return date;
    },
  } as const);
}

/**
 * `timestamp` key component as zero-padded epoch seconds or milliseconds,
 * optionally descending (`10^width − 1 − t`). Dates before 1970 are rejected;
 * `epoch-s` rejects dates with milliseconds, which would collide rows.
 * @internal
 */
export function createEpochTimestampCodec(ctx: KeyCodecContext, options: ResolvedKeyOptions): KeyComponentCodec {
  const seconds = options.format === 'epoch-s';
  return createDigitsCodec(ctx, options, {
    toAscending(value) {
      const ms = validTime(ctx, value);
      if (ms < 0) {
        throw keyError(
          ctx,
          value,
          `is not a valid ${options.format} key component: before 1970`,
          "use format: 'iso' for dates before 1970",
        );
      }
      if (seconds && ms % 1000 !== 0) {
        throw keyError(
          ctx,
          value,
          'is not a valid epoch-s key component: it has milliseconds, so two rows in the same second would share a key',
          "round the date to whole seconds, or use format: 'epoch-ms'",
        );
      }
      return BigInt(seconds ? ms / 1000 : ms);
    },
    fromAscending(ascending, text) {
      const ms = seconds ? ascending * 1000n : ascending;
      if (ms > MAX_DATE_MS)
        throw keyError(
          ctx,
          text,
          `is not a valid encoded ${options.format} key component: beyond the largest Date`,
          DECODE_FIX,
        );
      return new Date(Number(ms));
    },
    fromAscendingNumber(ascending) {
      const ms = seconds ? ascending * 1000 : ascending;
      return ms > MAX_DATE_MS_NUMBER ? undefined : new Date(ms);
    },
  });
}
