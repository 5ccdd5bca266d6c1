const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';
const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

/** DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, UNAVAILABLE. */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([4, 8, 10, 14]);
const INTERNAL = 13;
const RST_STREAM = /rst[_ ]stream/i;
const CLOSED_CLIENT = 'The client has already been closed.';
/** The longest backoff between two attempts. */
const MAX_BACKOFF_MS = 60_000;

/**
 * Whether a gRPC status (of a whole RPC, or of one MutateRows entry) is
 * transient, for reads and writes alike: gRPC 4, 8, 10, 14, or 13 INTERNAL
 * for a reset HTTP/2 stream (`RST_STREAM`). A closed client is not.
 * @internal
 */
export function isTransientStatus(code: number | undefined, message: unknown): boolean {
  if (code === undefined || message === CLOSED_CLIENT) return false;
  return TRANSIENT_CODES.has(code) || (code === INTERNAL && typeof message === 'string' && RST_STREAM.test(message));
}

/**
 * The client's backoff before retry number `retry` (1 for the first):
 * 10 ms × 2^retry plus up to 100 ms of jitter, at most 60 s.
 * @internal
 */
export function backoffMs(retry: number): number {
  return Math.min(10 * 2 ** retry + Math.floor(Math.random() * 100), MAX_BACKOFF_MS);
}

/**
 * The clients' wait before a retry: the server's `RetryInfo` delay when the
 * error carries one, otherwise 10 ms × 2^retry plus up to 100 ms of jitter,
 * at most 60 s.
 * @internal
 */
export function backoffWithServerDelay(retry: number, error?: unknown): number {
  return serverRetryDelayMs(error) ?? backoffMs(retry);
}

/**
 * The delay the server asked for before a retry: the `google.rpc.RetryInfo`
 * among the gRPC status details of `error`, in whole milliseconds (rounded
 * up, at most 60 s), or `undefined` when there is none (or it is malformed
 * or negative). Reads `statusDetails` as google-gax decodes
 * it and, when gax has not decoded it, the `grpc-status-details-bin` trailer
 * of the error's metadata.
 * @internal
 */
export function serverRetryDelayMs(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const { statusDetails, metadata } = error as { statusDetails?: unknown; metadata?: { get?: unknown } };
  const detailed = retryDelayInDetails(statusDetails);
  if (detailed !== undefined) return detailed;
  if (metadata === undefined || metadata === null || typeof metadata.get !== 'function') return undefined;
  let values: unknown;
  try {
    values = (metadata.get as (key: string) => unknown).call(metadata, STATUS_DETAILS_KEY);
  } catch {
    return undefined;
  }
  const bin = Array.isArray(values) ? (values as unknown[])[0] : undefined;
  return bin instanceof Uint8Array ? retryDelayInStatus(bin) : undefined;
}

/**
 * The `google.rpc.RetryInfo` delay among status details, in whole
 * milliseconds (at most 60 s), or `undefined`: details as google-gax decodes them (a
 * message with `retryDelay`), or as a MutateRows entry status carries them
 * (`google.protobuf.Any` with the encoded `RetryInfo` as `value`).
 * @internal
 */
export function retryDelayInDetails(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    if (detail === null || typeof detail !== 'object') continue;
    const {
      retryDelay,
      typeUrl,
      type_url: typeUrlSnake,
      value,
    } = detail as { retryDelay?: unknown; typeUrl?: unknown; type_url?: unknown; value?: unknown };
    if (retryDelay !== null && typeof retryDelay === 'object')
      return durationMs(
        toNumber((retryDelay as { seconds?: unknown }).seconds),
        toNumber((retryDelay as { nanos?: unknown }).nanos),
      );
    if ((typeUrl ?? typeUrlSnake) === RETRY_INFO_TYPE && value instanceof Uint8Array) {
      try {
        return retryInfoDelay(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A Duration in whole milliseconds, at most the longest backoff (60 s); `undefined` when malformed or negative. */
function durationMs(seconds: number | undefined, nanos: number | undefined): number | undefined {
  if (seconds === undefined || nanos === undefined || !Number.isFinite(seconds) || seconds < 0 || nanos < 0)
    return undefined;
  return Math.min(Math.ceil(seconds * 1_000 + nanos / 1_000_000), MAX_BACKOFF_MS);
}

/** A protobuf integer as a decoded message may hold it: number, numeric string, bigint or a `Long`. Absent is 0. */
function toNumber(value: unknown): number | undefined {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return /^-?\d+$/.test(value) ? Number(value) : undefined;
  const long = value as { toNumber?: unknown };
  if (typeof long.toNumber === 'function') return (long.toNumber as () => unknown).call(value) as number;
  return undefined;
}

/** RetryInfo in a serialized `google.rpc.Status` (`details` = field 3, each a `google.protobuf.Any`). */
function retryDelayInStatus(bytes: Uint8Array): number | undefined {
  try {
    for (const detail of fields(bytes)) {
      if (detail.field !== 3 || !(detail.value instanceof Uint8Array)) continue;
      let typeUrl = '';
      let value: Uint8Array | undefined;
      for (const part of fields(detail.value)) {
        if (part.field === 1 && part.value instanceof Uint8Array) typeUrl = Buffer.from(part.value).toString('utf8');
        if (part.field === 2 && part.value instanceof Uint8Array) value = part.value;
      }
      if (typeUrl === RETRY_INFO_TYPE && value !== undefined) return retryInfoDelay(value);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** `google.rpc.RetryInfo { google.protobuf.Duration retry_delay = 1; }`, Duration `{ int64 seconds = 1; int32 nanos = 2; }`. */
function retryInfoDelay(bytes: Uint8Array): number | undefined {
  for (const field of fields(bytes)) {
    if (field.field !== 1 || !(field.value instanceof Uint8Array)) continue;
    let seconds = 0;
    let nanos = 0;
    for (const part of fields(field.value)) {
      if (part.field === 1 && typeof part.value === 'number') seconds = part.value;
      if (part.field === 2 && typeof part.value === 'number') nanos = part.value;
    }
    return durationMs(seconds, nanos);
  }
  return undefined;
}

interface WireField {
  readonly field: number;
  /** A varint's value (`Infinity` past 2^53: a negative int64 or nonsense), or a length-delimited field's bytes. */
  readonly value: number | Uint8Array;
}

/** The fields of a protobuf message, in order; throws on bytes that are not a message. */
function* fields(bytes: Uint8Array): Generator<WireField> {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (at >= bytes.length) throw new RangeError('truncated varint');
      const byte = bytes[at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value <= Number.MAX_SAFE_INTEGER ? value : Infinity;
      scale *= 128;
    }
    throw new RangeError('varint longer than 10 bytes');
  };
  while (at < bytes.length) {
    const tag = varint();
    const wire = tag % 8;
    const field = Math.floor(tag / 8);
    if (wire === 0) yield { field, value: varint() };
    else if (wire === 2) {
      const length = varint();
      if (at + length > bytes.length) throw new RangeError('truncated field');
      yield { field, value: bytes.subarray(at, at + length) };
      at += length;
    } else if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
      if (at > bytes.length) throw new RangeError('truncated field');
    } else throw new RangeError(`unsupported wire type ${wire}`);
  }
}
