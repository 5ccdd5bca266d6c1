/**
 * The instrumentation scope of the library's meter and tracer: the package's
 * name and version (a unit test keeps the version equal to package.json's).
 * @internal
 */
export const INSTRUMENTATION_SCOPE = { name: 'bigtable-mapper', version: '0.1.0' } as const;

/** `db.system.name` of every span, after `gcp.spanner` in the database semantic conventions. @internal */
export const DB_SYSTEM = 'gcp.bigtable';

/**
 * Histogram bucket boundaries of every latency, in milliseconds: the ones
 * Google's Java client uses for its client-side metrics, from 0.01 ms to
 * about 53 minutes.
 * @internal
 */
export const LATENCY_BUCKETS_MS: readonly number[] = Object.freeze([
  0, 0.01, 0.05, 0.1, 0.3, 0.6, 0.8, 1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 30, 40, 50, 65, 80, 100, 130, 160, 200,
  250, 300, 400, 500, 650, 800, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 400_000, 800_000,
  1_600_000, 3_200_000,
]);

/** Bucket boundaries of `bigtable_mapper.batch_rows`: rows of one RPC call, from a point read to a full MutateRows batch. @internal */
export const BATCH_ROWS_BUCKETS: readonly number[] = Object.freeze([
  0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000,
]);

/** Bucket boundaries of `bigtable_mapper.buckets_touched`: ranges of one scan (salt buckets go up to 256 and double while re-salting). @internal */
export const BUCKETS_TOUCHED_BUCKETS: readonly number[] = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);

/** Bucket boundaries of `bigtable_mapper.read_ahead`: rows waiting ahead of an ordered merge (each bucket reads up to 1,024 ahead). @internal */
export const READ_AHEAD_BUCKETS: readonly number[] = Object.freeze([
  0, 16, 64, 256, 1_024, 4_096, 16_384, 65_536, 262_144,
]);

/**
 * The first `bytes` bytes of a row key as span text: printable ASCII as is
 * (a backslash doubled), every other byte as `\xNN`.
 * @internal
 * @example
 * ```ts
 * printableKeyPrefix(Buffer.from('03#sensor-1'), 6); // '03#sen'
 * printableKeyPrefix(Buffer.from([0x00, 0x41]), 2); // '\x00A'
 * ```
 */
export function printableKeyPrefix(key: Buffer, bytes: number): string {
  let out = '';
  const end = Math.min(key.length, bytes);
  for (let i = 0; i < end; i++) {
    const byte = key[i] as number;
    if (byte === 0x5c) out += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

const STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** The name of gRPC status `code` (`UNAVAILABLE` for 14), `UNKNOWN` for a code outside 0–16. @internal */
export function statusName(code: number | undefined): string {
  return (code === undefined ? undefined : STATUS_NAMES[code]) ?? 'UNKNOWN';
}

/**
 * The entity and repository operation of a call's name as the repository
 * gives it: `Reading.save` → `Reading` and `save`; a name without a dot is
 * the operation alone.
 * @internal
 */
export function splitOperationName(name: string): { entity: string | undefined; operation: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { entity: undefined, operation: name };
  const entity = name.slice(0, dot);
  return { entity: entity === 'BigtableMapper' ? undefined : entity, operation: name.slice(dot + 1) };
}
