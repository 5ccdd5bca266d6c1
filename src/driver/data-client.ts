import { PassThrough } from 'node:stream';
import { v2, type Bigtable, type protos } from '@google-cloud/bigtable';
import { DriverError } from '../errors/errors.js';
import type { RawEntry, RawMutation } from './client-mutation.js';
import type { ReadRowsMessage } from './read-rows-message.js';
import type { ReadAttemptStream } from './read-rows-call.js';
import type { MutateAttemptStream } from './mutate-rows-call.js';
import type { RowFilterMessage } from './row-filter-message.js';
import type { ProtoRow } from './client-row.js';
import type { GaxCallOptions } from './bounded-call.js';
import { READ_FEATURE_FLAGS, REVERSED_READ_FEATURE_FLAGS } from './feature-flags.js';

/**
 * A table as the data calls address it: its id (in error messages), its full
 * resource name and the app profile its requests name.
 * @internal
 */
export interface DataTable {
  readonly id: string;
  readonly name: string;
  readonly appProfileId: string | undefined;
}

/**
 * A `google.bigtable.v2.MutateRowsRequest`.
 * @internal
 */
export interface MutateRowsMessage {
  readonly tableName: string;
  readonly appProfileId?: string;
  readonly entries: readonly RawEntry[];
}

/**
 * A `google.bigtable.v2.CheckAndMutateRowRequest`; a `null` predicate matches when the row has any cell.
 * @internal
 */
export interface CheckAndMutateRowMessage {
  readonly tableName: string;
  readonly appProfileId?: string | undefined;
  readonly rowKey: Buffer;
  readonly predicateFilter: RowFilterMessage | null;
  readonly trueMutations: readonly RawMutation[];
  readonly falseMutations: readonly RawMutation[];
}

/**
 * A `google.bigtable.v2.ReadModifyWriteRowRequest` of int64 increments (amounts as decimal strings).
 * @internal
 */
export interface ReadModifyWriteRowMessage {
  readonly tableName: string;
  readonly appProfileId?: string | undefined;
  readonly rowKey: Buffer;
  readonly rules: readonly {
    readonly familyName: string;
    readonly columnQualifier: Buffer;
    readonly incrementAmount: string;
  }[];
}

/**
 * The data API calls the driver makes, one RPC attempt each: the seam that
 * tests replace. `attempt` (from 0) goes out in the `bigtable-attempt`
 * header; `gax` carries a unary attempt's gRPC deadline and cancelling signal.
 * @internal
 */
export interface DataRpc {
  readRows(message: ReadRowsMessage, attempt: number): ReadAttemptStream;
  mutateRows(message: MutateRowsMessage, attempt: number): MutateAttemptStream;
  checkAndMutateRow(
    message: CheckAndMutateRowMessage,
    gax: GaxCallOptions,
  ): Promise<{ readonly predicateMatched?: boolean | null }>;
  readModifyWriteRow(
    message: ReadModifyWriteRowMessage,
    gax: GaxCallOptions,
  ): Promise<{ readonly row?: ProtoRow | null }>;
}

/**
 * The calls the driver makes on the package's generated `v2.BigtableClient`.
 * @internal
 */
export type GeneratedDataClient = Pick<
  v2.BigtableClient,
  'readRows' | 'mutateRows' | 'checkAndMutateRow' | 'readModifyWriteRow' | 'getProjectId' | 'close'
>;

/** The placeholder the client puts in resource names when it was given no project id. */
const PROJECT_ID_TOKEN = '{{projectId}}';
const CLOSED_MESSAGE = 'The client has already been closed.';
const ABORTED = 10;

/**
 * The data API of Bigtable through the package's generated `v2.BigtableClient`,
 * created on the first call with the options the `Bigtable` client built for
 * its own data client (`bigtable.options.BigtableClient`: endpoint, port,
 * credentials and TLS or the emulator's insecure channel, channel pool,
 * keepalive, user agent), so calls go where and as the `Bigtable` client's
 * would. Streams go out with the client's stream retries off (the driver
 * retries); unary calls with the method's call settings plus `gax`. After
 * `close()` every call fails at once with the client's closed error (gRPC 10).
 *
 * Resource names come from the `Bigtable` client (`table.name`); when it was
 * given no project id they hold `{{projectId}}`, which {@link resolveProjectId}
 * replaces with the id the credentials name, as the client does (not on an
 * emulator, which takes any project).
 * @internal
 */
export class DataClient implements DataRpc {
  readonly #bigtable: Bigtable;
  readonly #createClient: (options: Bigtable['options']['BigtableClient']) => GeneratedDataClient;
  #client: GeneratedDataClient | undefined;
  #projectId: string | undefined;
  #closed = false;

  /** `createClient` makes the generated client from the `Bigtable` client's data options (tests pass a fake). */
  constructor(
    bigtable: Bigtable,
    createClient: (options: Bigtable['options']['BigtableClient']) => GeneratedDataClient = (options) =>
      new v2.BigtableClient(options),
  ) {
    this.#bigtable = bigtable;
    this.#createClient = createClient;
  }

  /** Whether resource names still hold `{{projectId}}` that {@link resolveProjectId} must replace. */
  get needsProjectId(): boolean {
    const bigtable = this.#bigtable;
    return (
      this.#projectId === undefined &&
      bigtable.projectId === PROJECT_ID_TOKEN &&
      bigtable.projectName.includes(PROJECT_ID_TOKEN) &&
      !bigtable.customEndpoint
    );
  }

  /** Looks the project id up through the credentials; rejects with `DriverError` when that fails. */
  async resolveProjectId(): Promise<void> {
    if (!this.needsProjectId) return;
    try {
      this.#projectId = await this.#api().getProjectId();
    } catch (err) {
      throw new DriverError('resolve the project id', err);
    }
  }

  /** `name` with `{{projectId}}` replaced once the project id is known. */
  tableName(name: string): string {
    if (!name.includes(PROJECT_ID_TOKEN)) return name;
    const projectId = this.#bigtable.projectId !== PROJECT_ID_TOKEN ? this.#bigtable.projectId : this.#projectId;
    return projectId === undefined ? name : name.replaceAll(PROJECT_ID_TOKEN, projectId);
  }

  readRows(message: ReadRowsMessage, attempt: number): ReadAttemptStream {
    if (this.#closed) return closedStream();
    const features = message.reversed === true ? REVERSED_READ_FEATURE_FLAGS : READ_FEATURE_FLAGS;
    return this.#api().readRows(message as unknown as protos.google.bigtable.v2.IReadRowsRequest, {
      otherArgs: { headers: { 'bigtable-attempt': attempt, 'bigtable-features': features } },
      retryRequestOptions: streamRetriesOff(),
    }) as unknown as ReadAttemptStream;
  }

  mutateRows(message: MutateRowsMessage, attempt: number): MutateAttemptStream {
    if (this.#closed) return closedStream();
    return this.#api().mutateRows(message as protos.google.bigtable.v2.IMutateRowsRequest, {
      otherArgs: { headers: { 'bigtable-attempt': attempt } },
      retryRequestOptions: streamRetriesOff(),
    }) as unknown as MutateAttemptStream;
  }

  checkAndMutateRow(
    message: CheckAndMutateRowMessage,
    gax: GaxCallOptions,
  ): Promise<{ readonly predicateMatched?: boolean | null }> {
    return new Promise((resolve, reject) => {
      if (this.#closed) {
        reject(closedError());
        return;
      }
      this.#api().checkAndMutateRow(
        message as protos.google.bigtable.v2.ICheckAndMutateRowRequest,
        gax,
        (err, response) => (err ? reject(err) : resolve(response ?? {})),
      );
    });
  }

  readModifyWriteRow(
    message: ReadModifyWriteRowMessage,
    gax: GaxCallOptions,
  ): Promise<{ readonly row?: ProtoRow | null }> {
    return new Promise((resolve, reject) => {
      if (this.#closed) {
        reject(closedError());
        return;
      }
      this.#api().readModifyWriteRow(
        message as protos.google.bigtable.v2.IReadModifyWriteRowRequest,
        gax,
        (err, response) => (err ? reject(err) : resolve((response ?? {}) as { row?: ProtoRow | null })),
      );
    });
  }

  /** Closes the generated client's channels, when one was created; later calls fail at once. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.close();
  }

  #api(): GeneratedDataClient {
    this.#client ??= this.#createClient(this.#bigtable.options.BigtableClient);
    return this.#client;
  }
}

/** The client's own stream retries, off: one RPC per call, `currentRetryAttempt` 0 so the first request is not delayed. */
function streamRetriesOff(): {
  currentRetryAttempt: number;
  noResponseRetries: number;
  objectMode: boolean;
  shouldRetryFn: () => boolean;
} {
  return { currentRetryAttempt: 0, noResponseRetries: 0, objectMode: true, shouldRetryFn: () => false };
}

/** The error of a call on a closed client, as the `Bigtable` client reports it: gRPC 10 (ABORTED), never retried. */
function closedError(): Error {
  return Object.assign(new Error(CLOSED_MESSAGE), { name: 'Closed', code: ABORTED, details: CLOSED_MESSAGE });
}

/** A response stream that fails with {@link closedError} on the next turn, as the client's does. */
function closedStream(): ReadAttemptStream & MutateAttemptStream {
  const stream = new PassThrough({ objectMode: true });
  const closed = Object.assign(stream, { cancel: () => undefined });
  setImmediate(() => stream.destroy(closedError()));
  return closed as unknown as ReadAttemptStream & MutateAttemptStream;
}
