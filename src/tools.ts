/**
 * `bigtable-mapper/tools`: the key-design tools, for design time, scripts and
 * CI: the linter, the bucket-count study, the census of a table's keys, the
 * hotspot simulator, Key-Visualizer-style heatmaps, the workload-capturing
 * driver decorator, the row-key encoder they share, and the types of an
 * entity's compiled schema (`EntitySchema`, what the tools read and what
 * `mapper.register()` returns).
 *
 * Importing it loads neither `@google-cloud/bigtable` nor gRPC: every tool
 * works on entity classes, compiled schemas and keys, and `captureWorkload`
 * wraps whichever driver it is given.
 *
 * @example
 * ```ts
 * import { lintEntities, simulateHotspots, renderHeatmap, heatmapFromSimulation } from 'bigtable-mapper/tools';
 * ```
 *
 * @module bigtable-mapper/tools
 */

// The compiled schema of an entity, as the tools read it (and as `mapper.register()`
// and `repo.schema` give it).
export type {
  EntitySchema,
  ColumnSchema,
  FamilySchema,
  DenormalizedSchema,
  PropagationStrategy,
} from './metadata/entity-schema.js';

// The linter.
export { lintEntity, lintEntities } from './lint/lint-entity.js';
export { lintCollection } from './lint/lint-collection.js';
export type { LintFinding, LintOptions, LintSeverity } from './lint/lint-finding.js';
export type { CollectionRuleId, LintRuleId, LintSuppression } from './model/lint-rule.js';

// Salt buckets: the bucket-count study, the census of a table's keys, evenness.
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
export { bucketCounts, evenness, type Evenness } from './key/salt.js';

// Row keys as stored.
export { encodeRowKey, decodeRowKey, MAX_ROW_KEY_BYTES, type EncodedRowKey } from './key/physical-key.js';
export type { KeySchema } from './key/logical-key.js';

// The hotspot simulator.
export { simulateHotspots, type SimulateHotspotsParams } from './simulate/simulate-hotspots.js';
export type { Workload, KeyGenerator } from './simulate/workload.js';
export type { ClusterModel } from './simulate/cluster-model.js';
export type { LayoutAlternative } from './simulate/layouts.js';
export type { SimulationReport, LayoutReport, SimulationStep, LayoutSummary } from './simulate/report.js';
export type { KeyRangeSpec } from './simulate/key-partition.js';

// Heatmaps and the workload capture.
export { renderHeatmap, type HeatmapOptions } from './heatmap/render-heatmap.js';
export {
  heatmapFromSimulation,
  heatmapFromCensus,
  type HeatmapData,
  type CensusRange,
} from './heatmap/heatmap-data.js';
export {
  captureWorkload,
  type CaptureOptions,
  type CapturedOperation,
  type CaptureHeatmapOptions,
  type WorkloadCapture,
} from './heatmap/capture-workload.js';
