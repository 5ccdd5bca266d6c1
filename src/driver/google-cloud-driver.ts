import { Bigtable } from '@google-cloud/bigtable';
import type { BigtableOptions, Instance, Table } from '@google-cloud/bigtable';
import type {
  ActualFamily,
  BigtableDriver,
  CallOptions,
  CheckAndMutateRequest,
  CreateFamilyRequest,
  CreateTableRequest,
  DeleteFamilyRequest,
  IncrementRequest,
  ListTablesRequest,
  MutateRowsRequest,
  ReadRowsRequest,
  RowData,
  RowKeySample,
  RowMutationFailure,
  SetFamilyGcRequest,
  TableRequest,
} from '../model/driver.js';
import type { CompiledMutation, PreparedMutation } from '../model/mutation.js';
import type { BatchStream } from '../stream/batch-stream.js';
import { checkAndMutateRow, incrementCells } from './atomic-ops.js';
import { planRead } from './read-plan.js';
import { ReadRowsCall } from './read-rows-call.js';
import { sampleRowKeysCall } from './sample-row-keys-call.js';
import { toReadRowsMessage } from './read-rows-message.js';
import { clientReadRetryPolicy } from './read-retry.js';
import { mutateManyRows, mutateOneRow } from './data-ops.js';
import { encodeMutateEntry } from './data-wire-requests.js';
import { openReadRows, OpenReads } from './read-stream.js';
import { ValidationError } from '../errors/errors.js';
import { checkEmulatorHost } from './emulator-host.js';
import {
  addFamily,
  callClient,
  createTableWithFamilies,
  dropFamily,
  dropTable,
  listTableIds,
  readFamilies,
  replaceFamilyGc,
  type AdminTarget,
} from './admin-ops.js';
import { clientEndpoint, ENDPOINT_PROBE_TIMEOUT_MS, EndpointProbe, probeEndpoint } from './endpoint-probe.js';
import type { AttemptListener } from './retry-engine.js';
import { DataClient, type DataTable } from './data-client.js';
import { MutateRowsRateLimiter } from './mutate-rows-limiter.js';

/**
 * How {@link createGoogleCloudDriver} gets its client: an existing `Bigtable`
 * (never closed by the driver), client options, or a loopback emulator address.
 * Of an existing client the driver reuses its options for the data API
 * (endpoint, credentials, channel settings), its project id and app profile,
 * and the client itself for table admin calls; reads and writes go through a
 * data channel of the driver's own, which `close()` closes.
 *
 * @example
 * ```ts
 * const options: GoogleCloudDriverOptions = { emulatorHost: '127.0.0.1:8086', instance: 'test' };
 * ```
 */
export type GoogleCloudDriverOptions =
  | {
      /** An existing client; the driver uses it and never closes it. */
      bigtable: Bigtable;
      /** Bigtable instance id. */
      instance: string;
    }
  | {
      /** Options for a new `Bigtable` client, which the driver creates and closes. */
      clientOptions: BigtableOptions;
      /** Bigtable instance id. */
      instance: string;
    }
  | {
      /** Emulator address `host:port`, loopback only (e.g. `127.0.0.1:8086`); the driver creates and closes the client. */
      emulatorHost: string;
      /** Bigtable instance id (any name on the emulator). */
      instance: string;
      /** Project id sent to the emulator. Default `emulator-project`. */
      projectId?: string;
    };

/**
 * The Bigtable driver on top of `@google-cloud/bigtable` 7.x: the only module
 * that loads the client. Table admin goes through the `Bigtable` client; reads
 * and writes through the package's generated data client (`v2.BigtableClient`),
 * set up as the `Bigtable` client's own. Client errors become `DriverError`s
 * with the gRPC code. Writes are sent as pre-encoded raw mutations; reads are
 * pull-based streams of row batches that `cancel()` ends on the server.
 *
 * @example
 * ```ts
 * const driver = createGoogleCloudDriver({ emulatorHost: '127.0.0.1:8086', instance: 'test' });
 * for await (const rows of driver.readRows({ table: 'readings', limit: 10 })) for (const row of rows) console.log(row.key);
 * await driver.close();
 * ```
 */
export class GoogleCloudDriver implements BigtableDriver {
  /** The underlying client. */
  readonly bigtable: Bigtable;
  /** Bigtable instance id. */
  readonly instanceId: string;
  readonly #instance: Instance;
  readonly #ownsClient: boolean;
  readonly #reads = new OpenReads();
  readonly #data: DataClient;
  readonly #dataProbe: EndpointProbe;
  readonly #adminProbe: EndpointProbe;

  /**
   * Wraps a client; {@link createGoogleCloudDriver} is the usual way to get a driver.
   * Nothing connects yet: the first call probes the client's endpoint (and
   * looks the project id up when the client was given none).
   *
   * @param bigtable - The client whose settings, and admin API, every call uses.
   * @param instanceId - Bigtable instance id.
   * @param ownsClient - Whether `close()` closes the client (false for a client the caller keeps using).
   */
  constructor(bigtable: Bigtable, instanceId: string, ownsClient: boolean) {
    this.bigtable = bigtable;
    this.instanceId = instanceId;
    this.#instance = bigtable.instance(instanceId);
    this.#ownsClient = ownsClient;
    const data = new DataClient(bigtable);
    this.#data = data;
    this.#dataProbe = new EndpointProbe(
      clientEndpoint(bigtable, 'BigtableClient'),
      ENDPOINT_PROBE_TIMEOUT_MS,
      async (endpoint, timeoutMs) => {
        await probeEndpoint(endpoint, timeoutMs);
        await data.resolveProjectId();
      },
    );
    const adminEndpoint = clientEndpoint(bigtable, 'BigtableTableAdminClient');
    this.#adminProbe = adminEndpoint === this.#dataProbe.endpoint ? this.#dataProbe : new EndpointProbe(adminEndpoint);
  }

  /**
   * Hears where every RPC attempt of this driver starts and ends (the retry
   * engine's seam for measurements); `undefined` by default.
   * @internal
   */
  attemptListener: AttemptListener | undefined;

  /**
   * The server-driven flow control of this driver's MutateRows calls
   * (`RateLimitInfo` in responses). Internal: tests read its rate.
   * @internal
   */
  readonly mutateRowsLimiter: MutateRowsRateLimiter = new MutateRowsRateLimiter();

  /**
   * `host:port` of the data API the client connects to (`apiEndpoint`, the
   * `BIGTABLE_EMULATOR_HOST` the client honours, or Google's endpoint).
   * @internal
   * @example
   * ```ts
   * createGoogleCloudDriver({ emulatorHost: '127.0.0.1:8086', instance: 'i' }).endpoint; // '127.0.0.1:8086'
   * ```
   */
  get endpoint(): string {
    return this.#dataProbe.endpoint;
  }

  /**
   * Resolves once the data endpoint has accepted a TCP connection (and the
   * project id is known): probed on the first call (3 s connect timeout),
   * remembered after a success, probed again on the next call after a
   * failure. Rejects with `UnreachableError` naming the endpoint, a
   * `DriverError` when the project id cannot be looked up, or with the typed
   * error of `call`'s signal or deadline if they end the wait first. Read and
   * write paths await it before their first attempt, so a dead endpoint fails
   * fast instead of through minutes of retries.
   * @internal
   * @example
   * ```ts
   * await driver.ready(call, 'mutateRow "readings"');
   * ```
   */
  ready(call?: CallOptions, operation?: string): Promise<void> {
    return this.#dataProbe.ready(call, operation);
  }

  /**
   * The driver's data client: reads and writes go through its methods.
   * @internal
   * @example
   * ```ts
   * const stream = driver.data.readRows(message, 0);
   * ```
   */
  get data(): DataClient {
    return this.#data;
  }

  /**
   * The client's handle on one table of the instance.
   * @internal
   * @example
   * ```ts
   * const table = driver.table('readings');
   * ```
   */
  table(id: string): Table {
    return this.#instance.table(id);
  }

  async listTables(_request?: ListTablesRequest, call?: CallOptions): Promise<string[]> {
    await this.#adminProbe.ready(call, 'listTables');
    return listTableIds(this.#admin(), call);
  }

  async getFamilies({ table }: TableRequest, call?: CallOptions): Promise<ActualFamily[] | undefined> {
    await this.#adminProbe.ready(call, 'getFamilies');
    return readFamilies(this.#admin(), table, call);
  }

  async createTable({ table, families, rowKeySchema }: CreateTableRequest, call?: CallOptions): Promise<void> {
    await this.#adminProbe.ready(call, 'createTable');
    return createTableWithFamilies(this.#admin(), table, families, call, rowKeySchema);
  }

  async createFamily({ table, family }: CreateFamilyRequest, call?: CallOptions): Promise<void> {
    await this.#adminProbe.ready(call, 'createFamily');
    return addFamily(this.#admin(), table, family, call);
  }

  async setFamilyGc({ table, family, gc }: SetFamilyGcRequest, call?: CallOptions): Promise<void> {
    await this.#adminProbe.ready(call, 'setFamilyGc');
    return replaceFamilyGc(this.#admin(), table, family, gc, call);
  }

  async deleteFamily({ table, family }: DeleteFamilyRequest, call?: CallOptions): Promise<void> {
    await this.#adminProbe.ready(call, 'deleteFamily');
    return dropFamily(this.#admin(), table, family, call);
  }

  async deleteTable({ table }: TableRequest, call?: CallOptions): Promise<void> {
    await this.#adminProbe.ready(call, 'deleteTable');
    return dropTable(this.#admin(), table, call);
  }

  /**
   * Cancels every read still open (its source then rejects with
   * `OperationAbortedError`, as does any read pulled later), closes the
   * driver's data channel, then the `Bigtable` client when the driver created
   * it. Without the cancel, an abandoned read keeps its gRPC call, and the
   * process, alive: closing the client does not end calls in flight.
   */
  async close(): Promise<void> {
    this.#reads.closeAll('the driver was closed');
    await callClient('close', () => this.#data.close());
    if (this.#ownsClient) await callClient('close', () => this.bigtable.close());
  }

  /**
   * Read streams opened by `readRows` that have not yet ended, failed or been cancelled.
   * @internal
   * @example
   * ```ts
   * source.cancel();
   * driver.activeReads; // 0
   * ```
   */
  get activeReads(): number {
    return this.#reads.active;
  }

  async mutateRow(mutation: CompiledMutation, call?: CallOptions): Promise<void> {
    await this.#dataProbe.ready(call, 'mutateRow');
    return mutateOneRow(this.#data, this.#dataTable(mutation.table, call), mutation, call);
  }

  /**
   * Encodes the row's mutations into the bytes of their MutateRows entry
   * once, for a later `mutateRows` of this driver (what a bulk writer holds
   * for each row it accepted).
   */
  prepareMutation(mutation: CompiledMutation): PreparedMutation {
    return encodeMutateEntry(mutation);
  }

  async mutateRows({ table, mutations }: MutateRowsRequest, call?: CallOptions): Promise<RowMutationFailure[]> {
    await this.#dataProbe.ready(call, 'mutateRows');
    return mutateManyRows(this.#data, this.#dataTable(table, call), mutations, call);
  }

  readRows(request: ReadRowsRequest, options?: CallOptions): BatchStream<RowData> {
    const plan = planRead(request);
    const table = this.table(request.table);
    const data = this.#data;
    const appProfileId = options?.appProfileId ?? this.bigtable.appProfileId;
    const operation = `readRows ${JSON.stringify(request.table)}`;
    const open =
      plan === undefined
        ? undefined
        : () =>
            new ReadRowsCall(
              plan,
              (part, attempt) =>
                data.readRows(toReadRowsMessage(part, data.tableName(table.name), appProfileId), attempt),
              clientReadRetryPolicy(table.maxRetries),
              options,
              operation,
              () => this.#dataProbe.ready(options, operation),
              (stream) => data.retireChannel(stream),
              this.attemptListener,
              request.table,
            );
    return openReadRows(open, operation, this.#reads, request.table);
  }

  async checkAndMutate(request: CheckAndMutateRequest, call?: CallOptions): Promise<boolean> {
    await this.#dataProbe.ready(call, 'checkAndMutate');
    return checkAndMutateRow(this.#data, this.#dataTable(request.table, call), request, call);
  }

  async increment({ table, rowKey, rules }: IncrementRequest, call?: CallOptions): Promise<RowData> {
    await this.#dataProbe.ready(call, 'increment');
    return incrementCells(this.#data, this.#dataTable(table, call), rowKey, rules, call);
  }

  async sampleRowKeys({ table }: TableRequest, call?: CallOptions): Promise<RowKeySample[]> {
    await this.#dataProbe.ready(call, 'sampleRowKeys');
    return sampleRowKeysCall(this.#data, this.#dataTable(table, call), call);
  }

  /** How the data calls address table `id`, with the call's app profile; only once the data endpoint is ready (the project id is then known). */
  #dataTable(id: string, call: CallOptions | undefined): DataTable {
    return {
      id,
      name: this.#data.tableName(this.table(id).name),
      appProfileId: call?.appProfileId ?? this.bigtable.appProfileId,
      listener: this.attemptListener,
      mutateLimiter: this.mutateRowsLimiter,
    };
  }

  /** Where the admin calls go, and who hears their attempts. */
  #admin(): AdminTarget {
    return { instance: this.#instance, listener: this.attemptListener };
  }
}

/**
 * gRPC keepalive for the clients the driver creates (as the Java client): a
 * ping every 30 s on a connection with calls, and a connection whose ping is
 * not answered within 10 s is closed. Without it a silently dead connection
 * (packets dropped, no reset) stays "open": a read's idle timeout cancels the
 * attempt, but its retry goes out on the same dead connection. Options given
 * in `clientOptions` win.
 */
const KEEPALIVE = { 'grpc.keepalive_time_ms': 30_000, 'grpc.keepalive_timeout_ms': 10_000 } as BigtableOptions;

/**
 * Creates the driver. An emulator address must be loopback (`ValidationError`
 * otherwise); the emulator client skips the metadata-server probe and metrics.
 *
 * @example
 * ```ts
 * const driver = createGoogleCloudDriver({ emulatorHost: process.env.BIGTABLE_EMULATOR_HOST!, instance: 'test' });
 * ```
 */
export function createGoogleCloudDriver(options: GoogleCloudDriverOptions): GoogleCloudDriver {
  const instance = (options as { instance?: unknown } | null)?.instance;
  if (typeof instance !== 'string' || instance === '') {
    throw new ValidationError(
      'createGoogleCloudDriver: `instance` must be a non-empty string. Fix: pass the Bigtable instance id.',
      { instance },
    );
  }
  if ('bigtable' in options) return new GoogleCloudDriver(options.bigtable, instance, false);
  if ('clientOptions' in options)
    return new GoogleCloudDriver(new Bigtable({ ...KEEPALIVE, ...options.clientOptions }), instance, true);
  if ('emulatorHost' in options) {
    const client = new Bigtable({
      ...KEEPALIVE,
      projectId: options.projectId ?? 'emulator-project',
      apiEndpoint: checkEmulatorHost(options.emulatorHost),
      metricsEnabled: false,
      universeDomain: 'googleapis.com',
    });
    return new GoogleCloudDriver(client, instance, true);
  }
  throw new ValidationError('createGoogleCloudDriver: pass one of `bigtable`, `clientOptions` or `emulatorHost`.', {});
}
