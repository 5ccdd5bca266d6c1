/**
 * `bigtable-mapper/driver`: the seam between the mapper and Bigtable. The
 * `BigtableDriver` interface with its requests, rows and row filters, the
 * plans a repository hands to it (`repo.compileSave()` gives a
 * `CompiledMutation`, `repo.planScan()` a `ScanPlan`), and
 * `createGoogleCloudDriver`, the driver on `@google-cloud/bigtable`. Use it to
 * pass the mapper a driver of your own (or a wrapped one), or to read raw rows
 * through `mapper.driver`. `InMemoryBigtable` in `bigtable-mapper/testing`
 * implements the same interface in memory.
 *
 * @example
 * ```ts
 * import { createGoogleCloudDriver, type BigtableDriver } from 'bigtable-mapper/driver';
 * const driver: BigtableDriver = createGoogleCloudDriver({ clientOptions: { projectId: 'my-project' }, instance: 'prod' });
 * const mapper = new BigtableMapper({ driver, entities: [Reading] });
 * ```
 *
 * @module bigtable-mapper/driver
 */
export type {
  BigtableDriver,
  CallOptions,
  ActualFamily,
  RowKeySchema,
  RowKeyField,
  ReadRowsRequest,
  RowData,
  CellData,
  KeyRange,
  KeyBound,
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
  RowKeySample,
} from './model/driver.js';
export type { RowFilter } from './model/row-filter.js';
export type { CompiledMutation, CellMutation, PreparedMutation } from './model/mutation.js';
export { isPreparedMutation } from './model/mutation.js';
export type { ScanPlan, ScanSource } from './scan/scan-plan.js';
export type { PropagationPlan } from './denormalize/plan-propagation.js';
export type { OperationKind } from './model/timeouts.js';
export type { ScanShard, ShardRange, PlanShardsOptions } from './scan/shards.js';
export { fromAsyncIterable } from './stream/async-iterable.js';
export type { BatchStream } from './stream/batch-stream.js';
export { createGoogleCloudDriver, type GoogleCloudDriverOptions } from './driver/google-cloud-driver.js';
export { ForwardingDriver, type DriverCall, type DriverRequests } from './model/forwarding-driver.js';
export { deadlineSignal } from './util/operation-signal.js';
