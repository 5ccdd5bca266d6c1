import { EventEmitter } from 'node:events';
import { stringify } from 'node:querystring';
import { Client, Metadata, type ClientReadableStream } from '@grpc/grpc-js';

/**
 * One server-streaming call sent as bytes: the request already encoded, each
 * response message decoded by `decode`, and the call's headers.
 * @internal
 */
export interface EncodedStreamingCall<R> {
  /** The gRPC method's path, e.g. `/google.bigtable.v2.Bigtable/ReadRows`. */
  readonly path: string;
  /** Encodes the request (not called when the call takes the generated method). */
  readonly request: () => Buffer;
  readonly decode: (message: Buffer) => R;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What {@link StubCalls} needs of a generated client: its `initialize()`,
 * which resolves to the gRPC stub it built (the channel, credentials, channel
 * pool and options of the client).
 * @internal
 */
export interface InitializableClient {
  initialize?(): Promise<unknown>;
}

/**
 * The response stream of a call opened before the stub was known, or on the
 * generated client's own method: the events, pause, resume and cancel of the
 * call's stream, relayed.
 * @internal
 */
export interface RelayedStream {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the listeners of each event take that event's own arguments
  on(event: string, listener: (...args: any[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  cancel(): unknown;
  destroy(error?: Error): unknown;
}

/** The events of a response stream that the driver listens to. */
const RELAYED_EVENTS = ['data', 'end', 'error', 'close'] as const;

/**
 * Streaming calls sent on a generated client's own gRPC stub with requests
 * the driver encoded itself and responses it decodes itself, instead of the
 * generated methods, whose protobufjs conversion of every message to and from
 * plain objects (with int64s as strings and every default filled in) costs
 * more than the rest of a read. The stub is the grpc-js `Client` the
 * generated client built in `initialize()`, so a call goes out on the same
 * channels (pool, credentials, keepalive, interceptors) with the same routing
 * headers as the generated method would send.
 *
 * When the stub is not a `Client` of this package's grpc-js (another copy of
 * grpc-js in the tree, or a client in a fallback mode), every call takes the
 * generated method (`fallback`) instead: slower, the same on the wire.
 * @internal
 */
export class StubCalls {
  /** The stub once known: a grpc-js `Client`, or `null` when calls must take the generated methods. */
  #stub: Client | null | undefined;
  #failure: unknown;
  readonly #ready: Promise<void>;

  constructor(client: InitializableClient) {
    if (typeof client.initialize !== 'function') {
      this.#stub = null;
      this.#ready = Promise.resolve();
      return;
    }
    this.#ready = client.initialize().then(
      (stub) => {
        this.#stub = stub instanceof Client ? stub : null;
      },
      (error: unknown) => {
        this.#failure = error;
      },
    );
  }

  /**
   * Opens `call` on the stub, or `fallback()` when calls take the generated
   * methods, and returns its stream; while the stub is still being built, a
   * stream that relays the call's events once it opens.
   */
  open<R>(call: EncodedStreamingCall<R>, fallback: () => RelayedStream): RelayedStream {
    if (this.#stub !== undefined) return this.#start(call, fallback);
    const relay = new CallRelay();
    void this.#ready.then(() => {
      if (relay.cancelled) return;
      if (this.#failure !== undefined) {
        relay.fail(this.#failure);
        return;
      }
      let stream: RelayedStream;
      try {
        stream = this.#start(call, fallback);
      } catch (error) {
        relay.fail(error);
        return;
      }
      relay.attach(stream);
    });
    return relay;
  }

  #start<R>(call: EncodedStreamingCall<R>, fallback: () => RelayedStream): RelayedStream {
    const stub = this.#stub;
    if (stub === null || stub === undefined) return fallback();
    const metadata = new Metadata();
    for (const [name, value] of Object.entries(call.headers)) metadata.set(name, value);
    return stub.makeServerStreamRequest(
      call.path,
      identity,
      call.decode,
      call.request(),
      metadata,
      {},
    ) as ClientReadableStream<R> & RelayedStream;
  }
}

/** The request is already bytes. */
function identity(request: Buffer): Buffer {
  return request;
}

/**
 * The `x-goog-request-params` routing header of a data call, as the generated
 * client builds it: the table's resource name and, when set, the app profile.
 * @internal
 */
export function routingHeader(tableName: string, appProfileId: string | undefined): string {
  return appProfileId === undefined
    ? stringify({ table_name: tableName })
    : stringify({ table_name: tableName, app_profile_id: appProfileId });
}

/**
 * The relay of one call: listeners registered on it hear the call's stream
 * once it is open; a pause, resume or cancel that came first is applied when
 * it opens. A call cancelled before it opened closes at once and is never
 * sent.
 */
class CallRelay extends EventEmitter implements RelayedStream {
  #stream: RelayedStream | undefined;
  #paused = false;
  #cancelled = false;
  #closed = false;

  /** Whether the call was cancelled before it opened (it then never opens). */
  get cancelled(): boolean {
    return this.#cancelled && this.#stream === undefined;
  }

  attach(stream: RelayedStream): void {
    this.#stream = stream;
    for (const event of RELAYED_EVENTS) stream.on(event, (...args: unknown[]) => this.#relay(event, args));
    if (this.#paused) stream.pause();
  }

  fail(error: unknown): void {
    if (this.#cancelled) return;
    this.emit('error', error);
    this.#close();
  }

  pause(): this {
    this.#paused = true;
    this.#stream?.pause();
    return this;
  }

  resume(): this {
    this.#paused = false;
    this.#stream?.resume();
    return this;
  }

  cancel(): void {
    this.#cancelled = true;
    if (this.#stream !== undefined) this.#stream.cancel();
    else this.#close();
  }

  /** Destroys the call's stream (with `error`, heard as its error); before it opened, cancels it, and fails with `error` first. */
  destroy(error?: Error): void {
    if (this.#stream !== undefined) {
      this.#stream.destroy(error);
      return;
    }
    if (error !== undefined && !this.#cancelled) this.emit('error', error);
    this.cancel();
  }

  #relay(event: (typeof RELAYED_EVENTS)[number], args: unknown[]): void {
    if (event === 'close') {
      this.#close();
      return;
    }
    this.emit(event, ...args);
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.emit('close');
  }
}
