/**
 * A validator that implements Standard Schema (https://standardschema.dev),
 * as zod (3.24+ and 4), valibot (1.0+) and ArkType (2.0+) schemas do: an object
 * (or function) with a `~standard` property whose `validate` checks a value.
 * The library reads only the interface, so it depends on none of them.
 *
 * A write runs it synchronously on the value as given (before encoding): a
 * validator whose `validate` returns a Promise is refused. Its output, the
 * value a transform or coercion would give, is not written; the value given
 * is.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * @Column({ family: 'p', type: 'string', validate: z.string().email() }) email?: string;
 * ```
 * @inline
 */
export interface StandardValidator {
  /** The Standard Schema properties (version 1). */
  readonly '~standard': {
    /** The version of the Standard Schema interface: 1. */
    readonly version: 1;
    /** The library that made the validator (`zod`, `valibot`, `arktype`, ...). */
    readonly vendor: string;
    /** Checks a value: `{ value }` when it is valid, `{ issues }` when it is not. */
    readonly validate: (value: unknown) => unknown;
  };
}
