/**
 * bigtable-mapper: a typed data mapper for Google Cloud Bigtable.
 *
 * Declare the row key, salting, column families and GC on an entity class;
 * get atomic mutations, point reads and RxJS-streamed, salt-aware scans.
 *
 * @example
 * ```ts
 * import { BigtableMapper, Entity, KeyPart, Family, Column } from 'bigtable-mapper';
 * ```
 * @packageDocumentation
 * @module bigtable-mapper
 */
export {
  Entity,
  KeyPart,
  Salt,
  Family,
  Column,
  CellTimestamp,
  Denormalized,
  type MapperClassDecorator,
  type MapperPropertyDecorator,
} from './decorators/index.js';
export type {
  Constructor,
  EntityOptions,
  EntityLintOptions,
  KeyFormat,
  KeyPartOptions,
  KeyLiteralOptions,
  KeyPartType,
  TimestampKeyFormat,
  VerbatimCharset,
  SaltOptions,
  PreviousSaltOptions,
  SaltHashPreset,
  SaltHashFunction,
  FamilyOptions,
  GcPolicy,
  Duration,
  ColumnOptions,
  ColumnScalarType,
  ColumnLayout,
  DenormalizedOptions,
  DataProperty,
  RequiredDataProperty,
  EntityData,
} from './model/declarations.js';
export type { CellVersion, Versioned } from './metadata/compile-columns.js';
export { compileEntity } from './metadata/compile-entity.js';
export type {
  EntitySchema,
  KeyPlan,
  KeyComponentSchema,
  SaltSchema,
  ColumnSchema,
  FamilySchema,
  DenormalizedSchema,
  PropagationStrategy,
} from './metadata/entity-schema.js';
export type { EmbeddedFieldSchema } from './codec/codec-contracts.js';
export { encodeRowKey, decodeRowKey, type EncodedRowKey } from './key/physical-key.js';
export type { KeySchema } from './key/logical-key.js';
export type { LogicalKeyRange } from './model/key-range.js';
export { bucketCounts, evenness, type Evenness } from './key/salt.js';
export { MAX_ROW_KEY_BYTES } from './key/physical-key.js';
export { lintEntity, lintEntities } from './lint/lint-entity.js';
export type { LintFinding, LintOptions, LintSeverity } from './lint/lint-finding.js';
export type { LintRuleId, LintSuppression } from './model/lint-rule.js';
export { bucketStudy, type BucketStudy, type BucketStudyRow } from './lint/bucket-study.js';
export {
  censusOf,
  type Census,
  type CensusBucket,
  type CensusEvenness,
  type CensusOptions,
  type CensusOverflow,
  type CensusPrefix,
  type CensusTally,
} from './lint/census.js';
export type { Spread } from './lint/spread.js';
export type { GcRule } from './model/gc-rule.js';
export type { SchemaChange } from './schema/schema-change.js';
export type { SchemaSyncOptions, SchemaSyncResult } from './schema/schema-sync.js';
export type { CompiledMutation, CellMutation } from './model/mutation.js';
export type { SaveCondition } from './mutation/compile-condition.js';
export type { ScanQuery, KeyWhere, RangeCondition } from './scan/scan-query.js';
export { range, KeyPartRange } from './scan/scan-query.js';
export type { ScanPlan, ScanSource, KeyCheck } from './scan/scan-plan.js';
export type { ReadOptions, Selected } from './scan/read-options.js';
export type {
  BigtableDriver,
  RowData,
  CellData,
  KeyRange,
  KeyBound,
  ReadRowsRequest,
  RowMutationFailure,
  CheckAndMutateRequest,
  IncrementRule,
  ListTablesRequest,
  TableRequest,
  CreateTableRequest,
  CreateFamilyRequest,
  SetFamilyGcRequest,
  DeleteFamilyRequest,
  MutateRowsRequest,
  IncrementRequest,
  ActualFamily,
  RowKeySchema,
  RowKeyField,
} from './model/driver.js';
export type { RowFilter } from './model/row-filter.js';
export { fromAsyncIterable } from './stream/async-iterable.js';
export type { BatchStream } from './stream/batch-stream.js';
export { concatMapFromIterable } from './stream/observable.js';
export {
  createGoogleCloudDriver,
  GoogleCloudDriver,
  type GoogleCloudDriverOptions,
} from './driver/google-cloud-driver.js';
export { BigtableMapper, type BigtableMapperOptions } from './repository/mapper.js';
export type { OperationOptions } from './operation/operation.js';
export { DEFAULT_TIMEOUTS, type TimeoutSettings, type TimeoutOverrides, type OperationKind } from './model/timeouts.js';
export type { CallOptions } from './model/driver.js';
export { Repository, type CounterValue } from './repository/repository.js';
export {
  KeyParts,
  type CounterProperty,
  type EntityChanges,
  type EntityInput,
  type EntityKey,
  type EntityProperty,
  type KeyProperty,
} from './metadata/compile-key-plan.js';
export type { BulkWriteOptions, BulkWriteResult } from './repository/save-many.js';
export type {
  ResaltBucketCount,
  ResaltCheckpoint,
  ResaltOptions,
  ResaltProgress,
  ResaltResult,
} from './repository/resalt.js';
export type { Page } from './scan/scan-ops.js';
export type { PropagateOptions, PropagationProgress } from './denormalize/propagate.js';
export type { PropagationPlan, PropagationGroup } from './denormalize/plan-propagation.js';
export type { MapperPropagationResult } from './denormalize/propagate.js';
export type { SourceReader, SourceResolver } from './denormalize/fill-copies.js';
export * from './errors/index.js';
export { toHttpError, httpStatusOf, type HttpError, type HttpErrorBody } from './http/http-error.js';
export {
  bigtableMapperErrorHandler,
  type ErrorHandlerOptions,
  type ErrorResponse,
} from './http/express-error-handler.js';

// Key-design tools: the hotspot simulator and Key-Visualizer-style heatmaps.
export { simulateHotspots, type SimulateHotspotsParams } from './simulate/simulate-hotspots.js';
export type { Workload, KeyGenerator } from './simulate/workload.js';
export type { ClusterModel } from './simulate/cluster-model.js';
export type { LayoutAlternative } from './simulate/layouts.js';
export type { SimulationReport, LayoutReport, SimulationStep, LayoutSummary } from './simulate/report.js';
export type { KeyRangeSpec } from './simulate/key-partition.js';
export { renderHeatmap, type HeatmapOptions } from './heatmap/render-heatmap.js';
export {
  heatmapFromSimulation,
  heatmapFromCensus,
  type HeatmapData,
  type CensusRange,
} from './heatmap/heatmap-data.js';
export {
  captureWorkload,
  CAPTURED_KEY_BYTES,
  type CaptureOptions,
  type CapturedOperation,
  type CaptureHeatmapOptions,
  type WorkloadCapture,
} from './heatmap/capture-workload.js';
