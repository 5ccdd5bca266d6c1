import { connect } from 'node:net';
import type { Bigtable } from '@google-cloud/bigtable';
import type { CallOptions } from '../model/driver.js';
import { UnreachableError } from '../errors/operation-errors.js';
import { abortError, deadlineError, deadlineOf } from '../util/operation-signal.js';

/** How long a probe waits for the endpoint to accept a TCP connection. @internal */
export const ENDPOINT_PROBE_TIMEOUT_MS = 3_000;

/** Which of the client's gRPC services an endpoint belongs to: data (reads, writes) or table admin. @internal */
export type ClientService = 'BigtableClient' | 'BigtableTableAdminClient';

interface ServiceOptions {
  readonly servicePath?: string;
  readonly apiEndpoint?: string;
  readonly port?: number;
}

const DEFAULT_HOSTS: Readonly<Record<ClientService, string>> = {
  BigtableClient: 'bigtable.googleapis.com',
  BigtableTableAdminClient: 'bigtableadmin.googleapis.com',
};

/**
 * The `host:port` a client connects to for one service, as the client itself
 * resolves it: its `apiEndpoint` option, else the `BIGTABLE_EMULATOR_HOST` it
 * honours, else Google's endpoint on port 443.
 * @internal
 */
export function clientEndpoint(bigtable: Bigtable, service: ClientService): string {
  const options = (bigtable.options as Partial<Record<ClientService, ServiceOptions>> | undefined)?.[service];
  const host = options?.servicePath ?? options?.apiEndpoint ?? DEFAULT_HOSTS[service];
  const port = options?.port ?? 443;
  return `${host}:${port}`;
}

/**
 * Resolves once `endpoint` (`host:port`) accepts a TCP connection (which is
 * closed at once); rejects with {@link UnreachableError} naming it when the
 * connection is refused, the name does not resolve, or nothing answers within
 * `timeoutMs`.
 * @internal
 */
export function probeEndpoint(endpoint: string, timeoutMs = ENDPOINT_PROBE_TIMEOUT_MS): Promise<void> {
  const match = /^(.+):(\d{1,5})$/.exec(endpoint);
  if (match === null) return Promise.reject(unreachable(endpoint, 'it is not HOST:PORT'));
  const host = (match[1] as string).replace(/^\[(.*)\]$/, '$1');
  const port = Number(match[2]);
  return new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(
      () => finish(unreachable(endpoint, `nothing accepted a TCP connection within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const finish = (error?: UnreachableError): void => {
      clearTimeout(timer);
      socket.destroy();
      if (error === undefined) resolve();
      else reject(error);
    };
    socket.once('connect', () => finish());
    socket.once('error', (err: NodeJS.ErrnoException) => finish(unreachable(endpoint, describeConnectError(err), err)));
  });
}

function describeConnectError(err: NodeJS.ErrnoException): string {
  if (err.code === 'ECONNREFUSED') return 'the connection was refused (nothing listens there)';
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return 'the host name does not resolve';
  return `connecting failed (${err.code ?? err.message})`;
}

function unreachable(endpoint: string, why: string, cause?: unknown): UnreachableError {
  return new UnreachableError(
    endpoint,
    `Bigtable endpoint ${endpoint} is unreachable: ${why}. Fix: start the emulator or the network path to Bigtable, or correct BIGTABLE_EMULATOR_HOST / the emulatorHost or apiEndpoint option`,
    cause,
  );
}

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * Checks an endpoint once before the first RPC: every caller waits for the
 * same TCP probe; a success is kept for the life of the probe object, a
 * failure is forgotten so the next call probes again (the backend may have
 * come up). Waiting honours the caller's signal (its abort and its deadline).
 * @internal
 */
export class EndpointProbe {
  /** `host:port` this probe checks. */
  readonly endpoint: string;
  readonly #timeoutMs: number;
  readonly #probe: (endpoint: string, timeoutMs: number) => Promise<void>;
  #pending: Promise<void> | undefined;
  #reached = false;

  constructor(
    endpoint: string,
    timeoutMs = ENDPOINT_PROBE_TIMEOUT_MS,
    probe: (endpoint: string, timeoutMs: number) => Promise<void> = probeEndpoint,
  ) {
    this.endpoint = endpoint;
    this.#timeoutMs = timeoutMs;
    this.#probe = probe;
  }

  /**
   * Resolves when the endpoint is known to accept connections. Rejects with
   * {@link UnreachableError}, or with the signal's typed error (abort or
   * deadline) when `call`'s signal ends first (the probe itself keeps
   * running for the callers still waiting).
   */
  ready(call?: CallOptions, operation = `connect ${this.endpoint}`): Promise<void> {
    const signal = call?.signal;
    if (signal?.aborted === true) return Promise.reject(abortError(signal, operation));
    if (this.#reached) return RESOLVED;
    const stopAt = deadlineOf(signal);
    if (stopAt !== undefined && Date.now() >= stopAt) return Promise.reject(deadlineError(signal));
    const probe = this.#start();
    if (signal === undefined) return probe;
    return new Promise<void>((resolve, reject) => {
      const cleanup = (): void => signal.removeEventListener('abort', onAbort);
      const onAbort = (): void => {
        cleanup();
        reject(abortError(signal, operation));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      probe.then(
        () => {
          cleanup();
          resolve();
        },
        (err: unknown) => {
          cleanup();
          reject(err);
        },
      );
    });
  }

  #start(): Promise<void> {
    if (this.#pending !== undefined) return this.#pending;
    const pending = this.#probe(this.endpoint, this.#timeoutMs);
    this.#pending = pending;
    pending.then(
      () => {
        this.#reached = true;
      },
      () => {
        if (this.#pending === pending) this.#pending = undefined;
      },
    );
    return pending;
  }
}
