/**
 * Features of `google.bigtable.v2.FeatureFlags` the client tells the server
 * it supports, by their proto field numbers.
 * @internal
 */
export interface FeatureFlagSet {
  /** Field 1: the client can read rows in reverse order. */
  readonly reverseScans?: boolean;
  /** Field 3: the client honours `RateLimitInfo` in MutateRows responses (server-driven flow control). */
  readonly mutateRowsRateLimit?: boolean;
  /** Field 4: the server may send responses with only `last_scanned_row_key`, so a retry resumes after rows it filtered out. */
  readonly lastScannedRowResponses?: boolean;
  /** Field 5: the client also honours a `RateLimitInfo` factor above 1 (the rate may rise again). */
  readonly mutateRowsRateLimit2?: boolean;
}

const FIELD_NUMBERS: Readonly<Record<keyof FeatureFlagSet, number>> = {
  reverseScans: 1,
  mutateRowsRateLimit: 3,
  lastScannedRowResponses: 4,
  mutateRowsRateLimit2: 5,
};
const VARINT = 0;

/**
 * The value of the `bigtable-features` request header: the serialized
 * `FeatureFlags` message, base64url with padding, as the server reads it.
 * Only `true` flags are written (proto3 leaves false ones out), in field order.
 * @internal
 */
export function encodeFeatureFlags(flags: FeatureFlagSet): string {
  const bytes: number[] = [];
  const set = (Object.keys(FIELD_NUMBERS) as (keyof FeatureFlagSet)[])
    .filter((flag) => flags[flag] === true)
    .map((flag) => FIELD_NUMBERS[flag]);
  for (const field of set.sort((a, b) => a - b)) bytes.push((field << 3) | VARINT, 1);
  return Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * What every ReadRows request announces: `last_scanned_row_responses`, so the
 * driver resumes a retried read after the last key the server scanned, not
 * only after the last row it delivered (a filter that drops most rows would
 * otherwise make a retry scan them again).
 * @internal
 */
export const READ_FEATURE_FLAGS: string = encodeFeatureFlags({ lastScannedRowResponses: true });

/**
 * What a reversed ReadRows request announces: {@link READ_FEATURE_FLAGS} plus
 * `reverse_scans`. The server (the emulator included) answers a request with
 * `reversed: true` UNIMPLEMENTED unless the client declares it can take rows
 * in descending order. Forward reads leave it out, as before.
 * @internal
 */
export const REVERSED_READ_FEATURE_FLAGS: string = encodeFeatureFlags({
  reverseScans: true,
  lastScannedRowResponses: true,
});

/**
 * What every MutateRows request announces: `mutate_rows_rate_limit` and
 * `mutate_rows_rate_limit2`, so the server may send `RateLimitInfo` and the
 * driver slows down or speeds up as it says (`driver/mutate-rows-limiter.ts`).
 * @internal
 */
export const MUTATE_FEATURE_FLAGS: string = encodeFeatureFlags({
  mutateRowsRateLimit: true,
  mutateRowsRateLimit2: true,
});
