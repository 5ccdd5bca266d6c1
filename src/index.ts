/**
 * bigtable-mapper: a typed data mapper for Google Cloud Bigtable.
 *
 * Declare the row key, salting, column families and GC on an entity class;
 * get atomic mutations, point reads and RxJS-streamed, salt-aware scans.
 *
 * The package root holds what an application needs: the decorators, the
 * mapper and its repositories, the options and results of their calls, and
 * the errors. The rest has its own entry point:
 * `bigtable-mapper/driver` (the `BigtableDriver` interface, its requests and
 * rows, and the Google Cloud driver), `bigtable-mapper/tools` (the key-design
 * tools: lint, bucket study, census, hotspot simulator, heatmaps, workload
 * capture), `bigtable-mapper/express` (HTTP answers for the library's errors),
 * `bigtable-mapper/testing` and `bigtable-mapper/nest`.
 *
 * @example
 * ```ts
 * import { BigtableMapper, Entity, KeyPart, Family, Column } from 'bigtable-mapper';
 * ```
 * @packageDocumentation
 * @module bigtable-mapper
 */

// Declaring entities: the decorators and their options.
export { Entity, KeyPart, Salt, Family, Column, CellTimestamp, Denormalized } from './decorators/index.js';
export type {
  Constructor,
  EntityOptions,
  KeyPartOptions,
  SaltOptions,
  FamilyOptions,
  ColumnOptions,
  DenormalizedOptions,
  DataProperty,
  EntityData,
} from './model/declarations.js';
export type { GcRule } from './model/gc-rule.js';
export type { CellVersion, Versioned } from './metadata/compile-columns.js';
export {
  KeyParts,
  type CounterProperty,
  type EntityChanges,
  type EntityInput,
  type EntityKey,
  type EntityProperty,
  type KeyProperty,
} from './metadata/compile-key-plan.js';

// The mapper and its repositories.
export { BigtableMapper, type BigtableMapperOptions } from './repository/mapper.js';
export type { MapperLogger, TelemetryOptions } from './model/telemetry.js';
export { Repository } from './repository/repository.js';
export { Collection } from './repository/collection.js';
export type { CollectionReadOptions, CollectionResult, CollectionItem } from './scan/collection-query.js';
export type { OperationOptions } from './operation/operation.js';
export { DEFAULT_TIMEOUTS, type TimeoutSettings, type TimeoutOverrides } from './model/timeouts.js';

// Reads and scans: one range vocabulary, `range()` on a key part.
export type { ScanQuery, KeyWhere, RangeCondition } from './scan/scan-query.js';
export { range, KeyPartRange } from './scan/scan-query.js';
export type { ReadOptions, Selected } from './read/read-options.js';
export type { Page } from './scan/scan-ops.js';
export { concatMapFromIterable } from './stream/observable.js';

// Writes, schema sync, re-salting and propagation.
export type { SaveCondition } from './mutation/compile-condition.js';
export type { BulkWriteOptions, BulkWriteResult } from './repository/save-many.js';
export { BulkWriter, type WriteOutcome } from './write/bulk-writer.js';
export type { SchemaChange } from './schema/schema-change.js';
export type { SchemaSyncOptions, SchemaSyncResult } from './schema/schema-sync.js';
export type { ResaltCheckpoint, ResaltOptions, ResaltProgress, ResaltResult } from './repository/resalt.js';
export type { PropagateOptions, PropagationProgress, MapperPropagationResult } from './denormalize/propagate.js';

// Errors.
export {
  ErrorCode,
  BigtableMapperError,
  MetadataError,
  KeyEncodingError,
  ValueEncodingError,
  ValidationError,
  type ValidationIssue,
  EntityNotFoundError,
  DriverError,
  TableNotFoundError,
  SchemaSyncError,
  PartialWriteError,
  type WriteFailure,
  DeadlineExceededError,
  OperationAbortedError,
  UnreachableError,
  WriteOutcomeUnknownError,
} from './errors/index.js';
