/**
 * When a MutateRows entry or attempt is worth another attempt: how many
 * attempts at most, and how long to wait before retry number `retry`
 * (1 for the first).
 * @internal
 * @example
 * ```ts
 * const fast: WriteRetryPolicy = { maxAttempts: 4, delayMs: () => 0 };
 * ```
 */
export interface WriteRetryPolicy {
  readonly maxAttempts: number;
  delayMs(retry: number): number;
}

/** The longest wait between two attempts, the server's `RetryInfo` delay included. */
const MAX_DELAY_MS = 60_000;

/**
 * The write retry policy: at most 10 attempts (the first and 9 retries),
 * waiting 10 ms × 2^retry plus up to 100 ms of jitter, at most 60 s; the
 * caller's deadline bounds it further.
 * @internal
 * @example
 * ```ts
 * DEFAULT_WRITE_RETRY.delayMs(1); // 20..119
 * ```
 */
export const DEFAULT_WRITE_RETRY: WriteRetryPolicy = Object.freeze({
  maxAttempts: 10,
  delayMs: (retry: number): number => Math.min(10 * 2 ** retry + Math.floor(Math.random() * 100), MAX_DELAY_MS),
});

/** DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, UNAVAILABLE. */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([4, 8, 10, 14]);
const INTERNAL = 13;
const RST_STREAM = /rst[_ ]stream/i;
const CLOSED_CLIENT = 'The client has already been closed.';

/**
 * Whether a status (of one entry or of the whole RPC) is transient: gRPC 4,
 * 8, 10, 14, or 13 INTERNAL for a reset HTTP/2 stream (`RST_STREAM`), which
 * is what a dropped connection looks like. A closed client is not transient.
 * @internal
 * @example
 * ```ts
 * isTransientWriteStatus(13, 'Received RST_STREAM with code 2'); // true
 * isTransientWriteStatus(13, 'unknown family "x"');              // false
 * ```
 */
export function isTransientWriteStatus(code: number | undefined, message: string): boolean {
  if (code === undefined || message === CLOSED_CLIENT) return false;
  return TRANSIENT_CODES.has(code) || (code === INTERNAL && RST_STREAM.test(message));
}

const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * The delay in milliseconds a server asked for with `google.rpc.RetryInfo`,
 * at most 60 s, or 0. Reads the details of an RPC error as google-gax
 * decodes them (`statusDetails`, each a decoded message) and the details of
 * an entry's status as they arrive (`google.protobuf.Any` with the encoded
 * `RetryInfo` in `value`).
 * @internal
 * @example
 * ```ts
 * serverRetryDelayMs([{ retryDelay: { seconds: 2, nanos: 500_000_000 } }]); // 2500
 * ```
 */
export function serverRetryDelayMs(details: unknown): number {
  if (!Array.isArray(details)) return 0;
  let delay = 0;
  for (const detail of details as unknown[]) {
    const found = retryDelayOf(detail);
    if (found !== undefined && Number.isFinite(found)) delay = Math.max(delay, found);
  }
  return Math.min(delay, MAX_DELAY_MS);
}

function retryDelayOf(detail: unknown): number | undefined {
  if (detail === null || typeof detail !== 'object') return undefined;
  const { retryDelay, typeUrl, type_url: typeUrlSnake, value } = detail as { retryDelay?: unknown; typeUrl?: unknown; type_url?: unknown; value?: unknown };
  if (retryDelay !== null && typeof retryDelay === 'object') {
    const { seconds, nanos } = retryDelay as { seconds?: unknown; nanos?: unknown };
    return toNumber(seconds) * 1_000 + toNumber(nanos) / 1e6;
  }
  if ((typeUrl ?? typeUrlSnake) === RETRY_INFO_TYPE && value instanceof Uint8Array) return decodeRetryInfoMs(value);
  return undefined;
}

/** A protobuf int64 as google-gax may give it: number, decimal string, or `Long`. */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Number(value);
  if (value !== null && typeof value === 'object' && typeof (value as { toNumber?: unknown }).toNumber === 'function') return (value as { toNumber(): number }).toNumber();
  return 0;
}

/**
 * Decodes `RetryInfo { Duration retry_delay = 1; }` with
 * `Duration { int64 seconds = 1; int32 nanos = 2; }`, skipping unknown fields.
 */
function decodeRetryInfoMs(bytes: Uint8Array): number | undefined {
  const outer = fields(bytes);
  const duration = outer.get(1);
  if (!(duration instanceof Uint8Array)) return undefined;
  const inner = fields(duration);
  const seconds = inner.get(1);
  const nanos = inner.get(2);
  return (typeof seconds === 'number' ? seconds : 0) * 1_000 + (typeof nanos === 'number' ? nanos : 0) / 1e6;
}

/** Field number → varint value or length-delimited bytes (the last occurrence wins); stops at anything malformed. */
function fields(bytes: Uint8Array): Map<number, number | Uint8Array> {
  const out = new Map<number, number | Uint8Array>();
  let at = 0;
  const varint = (): number | undefined => {
    let result = 0;
    let scale = 1;
    while (at < bytes.length) {
      const byte = bytes[at++] as number;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
    return undefined;
  };
  while (at < bytes.length) {
    const tag = varint();
    if (tag === undefined) break;
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (wire === 0) {
      const value = varint();
      if (value === undefined) break;
      out.set(field, value);
    } else if (wire === 2) {
      const length = varint();
      if (length === undefined || at + length > bytes.length) break;
      out.set(field, bytes.subarray(at, at + length));
      at += length;
    } else {
      break;
    }
  }
  return out;
}
