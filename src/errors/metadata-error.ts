import { BigtableMapperError } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/**
 * An entity's decorators are inconsistent. Thrown by `compileEntity()` (or by a
 * decorator for purely local mistakes); the message names `Entity.property`
 * and says how to fix it.
 *
 * @example
 * ```ts
 * try { compileEntity(Reading); }
 * catch (err) { if (err instanceof MetadataError) console.error(err.message); }
 * // "Reading.temperature: column uses family "m" which is not declared. Fix: add @Family('m') to Reading."
 * ```
 */
export class MetadataError extends BigtableMapperError {
  /** The entity class name. */
  readonly entity: string;
  /** The property at fault, when there is one. */
  readonly property: string | undefined;

  constructor(entity: string, property: string | undefined, problem: string, fix: string) {
    const where = property === undefined ? entity : `${entity}.${property}`;
    super(ErrorCode.Metadata, `${where}: ${problem}. Fix: ${fix}`, { details: { entity, property, problem, fix } });
    this.entity = entity;
    this.property = property;
  }
}
