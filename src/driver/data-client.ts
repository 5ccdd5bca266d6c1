import { PassThrough } from 'node:stream';
import { v2, type Bigtable, type protos } from '@google-cloud/bigtable';
import { DriverError } from '../errors/errors.js';
import type {
  CheckAndMutateRowMessage,
  MutateRowsMessage,
  ReadModifyWriteRowMessage,
  SampleRowKeysMessage,
  SampleRowKeysResponse,
} from './data-messages.js';
import type { ReadRowsMessage } from './read-rows-message.js';
import type { ReadAttemptStream } from './read-rows-call.js';
import type { MutateAttemptStream } from './mutate-rows-call.js';
import type { AbortableRead } from './abort-read.js';
import type { ProtoRow } from './client-row.js';
import type { AttemptListener, GaxCallOptions } from './retry-engine.js';
import { MUTATE_FEATURE_FLAGS, READ_FEATURE_FLAGS, REVERSED_READ_FEATURE_FLAGS } from './feature-flags.js';
import type { MutateRowsRateLimiter } from './mutate-rows-limiter.js';
import { DataChannels, type ChannelLease } from './data-channels.js';
import { routingHeader, StubCalls, type EncodedStreamingCall, type RelayedStream } from './stub-calls.js';
import { encodeMutateRowsRequest, encodeReadRowsRequest, encodeSampleRowKeysRequest } from './data-wire-requests.js';
import {
  decodeMutateRowsResponse,
  decodeReadRowsResponse,
  decodeSampleRowKeysResponse,
} from './data-wire-responses.js';

/**
 * A table as the data calls address it: its id (in error messages), its full
 * resource name and the app profile its requests name.
 * @internal
 */
export interface DataTable {
  readonly id: string;
  readonly name: string;
  readonly appProfileId: string | undefined;
  /** Hears every RPC attempt on the table (measurements). */
  readonly listener?: AttemptListener | undefined;
  /** The server-driven flow control of MutateRows calls (`RateLimitInfo`), when the driver has one. */
  readonly mutateLimiter?: MutateRowsRateLimiter | undefined;
}

/**
 * One attempt's SampleRowKeys response stream, as the generated client
 * returns it: messages of `rowKey` and `offsetBytes` (int64, as a string or
 * a number depending on the client's options).
 * @internal
 */
export interface SampleAttemptStream extends AbortableRead {
  on(event: 'data', listener: (response: SampleRowKeysResponse) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * The data API calls the driver makes, one RPC attempt each: the seam that
 * tests replace. `attempt` (from 0) goes out in the `bigtable-attempt`
 * header; `gax` carries a unary attempt's gRPC deadline and cancelling signal.
 * @internal
 */
export interface DataRpc {
  /**
   * Called by the attempt timers when an attempt went silent (cut by its
   * idle or attempt timeout), with what identifies the attempt: the stream
   * `readRows` or `mutateRows` returned, or the `gax` options of a unary
   * call. The channel it went out on takes no new call: the next attempt goes
   * out on a new one. Optional: an RPC with one fixed channel (a test fake)
   * leaves it out.
   */
  retireChannel?(attempt: object): void;
  readRows(message: ReadRowsMessage, attempt: number): ReadAttemptStream;
  mutateRows(message: MutateRowsMessage, attempt: number): MutateAttemptStream;
  sampleRowKeys(message: SampleRowKeysMessage, attempt: number): SampleAttemptStream;
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
  'readRows' | 'mutateRows' | 'sampleRowKeys' | 'checkAndMutateRow' | 'readModifyWriteRow' | 'getProjectId' | 'close'
> &
  Partial<Pick<v2.BigtableClient, 'initialize'>>;

/**
 * The gRPC channel option that gives a channel subchannels (so TCP
 * connections) of its own instead of those of the process-wide pool, which
 * any channel with equal options shares: without it a replacement client,
 * created with the options of the first, would get the first one's
 * connections back.
 */
const OWN_CONNECTIONS = { 'grpc.use_local_subchannel_pool': 1 } as const;

/** The placeholder the client puts in resource names when it was given no project id. */
const PROJECT_ID_TOKEN = '{{projectId}}';
const CLOSED_MESSAGE = 'The client has already been closed.';
const SERVICE = '/google.bigtable.v2.Bigtable/';
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
 * When an attempt went silent ({@link DataRpc.retireChannel}), the client it
 * went out on is retired and a new `v2.BigtableClient` takes the next calls
 * ({@link DataChannels}): same options, plus `grpc.use_local_subchannel_pool`
 * so that its channels open new TCP connections, and the credentials of the
 * first client (no second credentials lookup). The retired client is closed
 * once its last call has ended.
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
  readonly #channels: DataChannels<GeneratedDataClient>;
  /** The lease of each call in flight, by its stream (streaming calls) or its gax options (unary calls). */
  readonly #leases = new WeakMap<object, ChannelLease<GeneratedDataClient>>();
  /** The calls sent as bytes on each generated client's own gRPC stub. */
  readonly #stubCalls = new WeakMap<GeneratedDataClient, StubCalls>();
  /** The `x-goog-api-client` header of the streaming calls sent on the stub. */
  readonly #apiClient: string;
  /** The credentials of the first client, handed to its replacements. */
  #auth: unknown;
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
    const options = bigtable.options.BigtableClient as { libName?: unknown; libVersion?: unknown } | undefined;
    const library = typeof options?.libVersion === 'string' ? ` ${String(options.libName)}/${options.libVersion}` : '';
    this.#apiClient = `gl-node/${process.versions.node}${library}`;
    this.#channels = new DataChannels((generation) => this.#newClient(generation));
  }

  /** Generated clients created so far: 1 after the first call, one more for each retired one. */
  get clientsCreated(): number {
    return this.#channels.created;
  }

  /** Generated clients open: the current one and the retired ones still carrying calls. */
  get clientsOpen(): number {
    return this.#channels.open;
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
      const lease = this.#channels.lease();
      try {
        this.#projectId = await lease.client.getProjectId();
      } finally {
        lease.release();
      }
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
    const headers = this.#headers(message, attempt, features);
    return this.#streamOnLease(
      {
        path: `${SERVICE}ReadRows`,
        request: () => encodeReadRowsRequest(message),
        decode: decodeReadRowsResponse,
        headers,
      },
      (client) =>
        client.readRows(message as unknown as protos.google.bigtable.v2.IReadRowsRequest, {
          otherArgs: { headers: gaxHeaders(headers) },
          retryRequestOptions: streamRetriesOff(),
        }),
    ) as ReadAttemptStream;
  }

  mutateRows(message: MutateRowsMessage, attempt: number): MutateAttemptStream {
    if (this.#closed) return closedStream();
    const headers = this.#headers(message, attempt, MUTATE_FEATURE_FLAGS);
    return this.#streamOnLease(
      {
        path: `${SERVICE}MutateRows`,
        request: () => encodeMutateRowsRequest(message),
        decode: decodeMutateRowsResponse,
        headers,
      },
      (client) =>
        client.mutateRows(withDecodedEntries(message), {
          otherArgs: { headers: gaxHeaders(headers) },
          retryRequestOptions: streamRetriesOff(),
        }),
    ) as MutateAttemptStream;
  }

  sampleRowKeys(message: SampleRowKeysMessage, attempt: number): SampleAttemptStream {
    if (this.#closed) return closedStream();
    const headers = this.#headers(message, attempt, undefined);
    return this.#streamOnLease(
      {
        path: `${SERVICE}SampleRowKeys`,
        request: () => encodeSampleRowKeysRequest(message),
        decode: decodeSampleRowKeysResponse,
        headers,
      },
      (client) =>
        client.sampleRowKeys(message as protos.google.bigtable.v2.ISampleRowKeysRequest, {
          otherArgs: { headers: gaxHeaders(headers) },
          retryRequestOptions: streamRetriesOff(),
        }),
    ) as SampleAttemptStream;
  }

  retireChannel(attempt: object): void {
    this.#leases.get(attempt)?.retire();
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
      this.#unary(gax, reject, (client, release) =>
        client.checkAndMutateRow(
          message as protos.google.bigtable.v2.ICheckAndMutateRowRequest,
          gax,
          (err, response) => {
            release();
            if (err) reject(err);
            else resolve(response ?? {});
          },
        ),
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
      this.#unary(gax, reject, (client, release) =>
        client.readModifyWriteRow(
          message as protos.google.bigtable.v2.IReadModifyWriteRowRequest,
          gax,
          (err, response) => {
            release();
            if (err) reject(err);
            else resolve((response ?? {}) as { row?: ProtoRow | null });
          },
        ),
      );
    });
  }

  /** Closes the channels of every generated client created (current and retired); later calls fail at once. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#channels.close();
  }

  /** Generation 0 with the `Bigtable` client's data options as they are; replacements on connections of their own. */
  #newClient(generation: number): GeneratedDataClient {
    const options = this.#bigtable.options.BigtableClient;
    if (generation === 0) {
      const client = this.#createClient(options);
      this.#auth = (client as { auth?: unknown }).auth;
      return client;
    }
    const own: Record<string, unknown> = { ...options, ...OWN_CONNECTIONS };
    if (this.#auth !== undefined) own['auth'] = this.#auth;
    return this.#createClient(own as Bigtable['options']['BigtableClient']);
  }

  /**
   * Opens a streaming call on the current client: sent as bytes on its gRPC
   * stub ({@link StubCalls}), or on its generated method (`generated`) when
   * the stub is not one this package can send bytes on. The client is held
   * until the stream ends, fails or closes (a cancel destroys it).
   */
  #streamOnLease<R>(call: EncodedStreamingCall<R>, generated: (client: GeneratedDataClient) => unknown): RelayedStream {
    const lease = this.#channels.lease();
    let stream: RelayedStream;
    try {
      const client = lease.client;
      stream = this.#stubsOf(client).open(call, () => generated(client) as RelayedStream);
    } catch (err) {
      lease.release();
      throw err;
    }
    this.#leases.set(stream, lease);
    const release = (): void => lease.release();
    stream.on('end', release);
    stream.on('error', release);
    stream.on('close', release);
    return stream;
  }

  #stubsOf(client: GeneratedDataClient): StubCalls {
    let calls = this.#stubCalls.get(client);
    if (calls === undefined) {
      calls = new StubCalls(client);
      this.#stubCalls.set(client, calls);
    }
    return calls;
  }

  /**
   * The headers of a streaming call, as the generated method sends them: the
   * client's `x-goog-api-client`, the routing parameters, the attempt number
   * and, when given, the feature flags.
   */
  #headers(
    message: { readonly tableName: string; readonly appProfileId?: string | undefined },
    attempt: number,
    features: string | undefined,
  ): Record<string, string> {
    const headers: Record<string, string> = {
      'x-goog-api-client': this.#apiClient,
      'x-goog-request-params': routingHeader(message.tableName, message.appProfileId),
      'bigtable-attempt': String(attempt),
    };
    if (features !== undefined) headers['bigtable-features'] = features;
    return headers;
  }

  /**
   * Starts a unary call on the current client, held (and found again by its
   * `gax` options) until the call's callback runs `release`; a failure to
   * start it rejects through `reject`.
   */
  #unary(
    gax: GaxCallOptions,
    reject: (error: unknown) => void,
    send: (client: GeneratedDataClient, release: () => void) => unknown,
  ): void {
    let lease: ChannelLease<GeneratedDataClient>;
    try {
      lease = this.#channels.lease();
    } catch (err) {
      reject(err);
      return;
    }
    this.#leases.set(gax, lease);
    try {
      send(lease.client, () => lease.release());
    } catch (err) {
      lease.release();
      reject(err);
    }
  }
}

/**
 * The headers the generated methods take in `otherArgs`: the attempt and the
 * feature flags; the generated client adds its own `x-goog-api-client` and
 * routing header.
 */
function gaxHeaders(headers: Readonly<Record<string, string>>): Record<string, string | number> {
  const own: Record<string, string | number> = { 'bigtable-attempt': Number(headers['bigtable-attempt']) };
  const features = headers['bigtable-features'];
  if (features !== undefined) own['bigtable-features'] = features;
  return own;
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
function closedStream(): ReadAttemptStream & MutateAttemptStream & SampleAttemptStream {
  const stream = new PassThrough({ objectMode: true });
  const closed = Object.assign(stream, { cancel: () => undefined });
  setImmediate(() => stream.destroy(closedError()));
  return closed as unknown as ReadAttemptStream & MutateAttemptStream & SampleAttemptStream;
}

/** The request as the generated method takes it: its entries, encoded once, read back into messages. */
function withDecodedEntries(message: MutateRowsMessage): protos.google.bigtable.v2.IMutateRowsRequest {
  return {
    ...message,
    entries: message.entries.map((entry) => entry.toRawEntry()),
  } as unknown as protos.google.bigtable.v2.IMutateRowsRequest;
}
