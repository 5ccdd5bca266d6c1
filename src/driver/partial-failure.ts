/**
 * One failed entry of the client's `PartialFailureError`; `entry` is the very
 * object that was passed to `table.mutate()`.
 * @internal
 * @example
 * ```ts
 * const failure: EntryFailure = { code: 13, message: 'unknown family "x"', entry };
 * ```
 */
export interface EntryFailure {
  readonly code: number | undefined;
  readonly message: string;
  readonly entry: unknown;
}

/**
 * What a `PartialFailureError` says. `rpcFailed` is true when the RPC itself
 * failed after retries: the entries that never got a status are then absent
 * from `errors`, so the outcome of the batch is unknown.
 * @internal
 * @example
 * ```ts
 * const partial = asPartialFailure(err);
 * if (partial && !partial.rpcFailed) report(partial.errors);
 * ```
 */
export interface PartialFailure {
  readonly errors: readonly EntryFailure[];
  readonly rpcFailed: boolean;
  readonly rpcCode: number | undefined;
}

const RPC_FAILED = /Request failed with: (?:(\d+) )?/;

/**
 * Recognises the client's `PartialFailureError` by `name` (it is exported from
 * the typings only, so `instanceof` cannot work at runtime).
 * @internal
 * @example
 * ```ts
 * try { await table.mutate(entries, { rawMutation: true }); }
 * catch (err) { const partial = asPartialFailure(err); }
 * ```
 */
export function asPartialFailure(err: unknown): PartialFailure | undefined {
  const candidate = err as { name?: unknown; errors?: unknown; message?: unknown } | null;
  if (candidate?.name !== 'PartialFailureError' || !Array.isArray(candidate.errors)) return undefined;
  const errors = candidate.errors.map((e: unknown): EntryFailure => {
    const item = (e ?? {}) as { code?: unknown; message?: unknown; entry?: unknown };
    return {
      code: typeof item.code === 'number' ? item.code : undefined,
      message: typeof item.message === 'string' ? item.message : String(item.message),
      entry: item.entry,
    };
  });
  const rpc = typeof candidate.message === 'string' ? RPC_FAILED.exec(candidate.message) : null;
  return { errors, rpcFailed: rpc !== null, rpcCode: rpc?.[1] === undefined ? undefined : Number(rpc[1]) };
}
