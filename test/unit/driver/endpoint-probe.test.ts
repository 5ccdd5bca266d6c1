import { createServer } from 'node:net';
import { Bigtable } from '@google-cloud/bigtable';
import { afterEach, describe, expect, it } from 'vitest';
import { clientEndpoint, EndpointProbe, probeEndpoint } from '../../../src/driver/endpoint-probe.js';
import { DeadlineExceededError, OperationAbortedError, UnreachableError } from '../../../src/errors/index.js';
import { freePort } from '../../../src/testing/index.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

/** A probe function that records its calls and settles as told. */
function scriptedProbe(outcomes: ('ok' | 'fail' | 'hang')[]) {
  const calls: string[] = [];
  const probe = (endpoint: string): Promise<void> => {
    calls.push(endpoint);
    const outcome = outcomes.shift() ?? 'ok';
    if (outcome === 'ok') return Promise.resolve();
    if (outcome === 'fail') return Promise.reject(new UnreachableError(endpoint, `${endpoint} is down`));
    return new Promise<void>(() => undefined);
  };
  return { calls, probe };
}

describe('EndpointProbe', () => {
  it('probes once while it succeeds, and concurrent callers share the probe', async () => {
    const { calls, probe } = scriptedProbe(['ok']);
    const endpoints = new EndpointProbe('127.0.0.1:9', 3_000, probe);
    await Promise.all([endpoints.ready(), endpoints.ready(), endpoints.ready({ signal: deadlineSignal(60_000) })]);
    await endpoints.ready();
    expect(calls).toEqual(['127.0.0.1:9']);
  });

  it('forgets a failure: the next call probes again', async () => {
    const { calls, probe } = scriptedProbe(['fail', 'fail', 'ok']);
    const endpoints = new EndpointProbe('127.0.0.1:9', 3_000, probe);
    await expect(endpoints.ready()).rejects.toBeInstanceOf(UnreachableError);
    await expect(endpoints.ready()).rejects.toBeInstanceOf(UnreachableError);
    await endpoints.ready();
    await endpoints.ready();
    expect(calls).toHaveLength(3);
  });

  it('stops waiting at the caller deadline or signal, with their typed errors', async () => {
    const { probe } = scriptedProbe(['hang']);
    const endpoints = new EndpointProbe('127.0.0.1:9', 3_000, probe);
    const late = await endpoints
      .ready({ signal: deadlineSignal(50, { operation: 'listTables' }) }, 'listTables')
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(DeadlineExceededError);
    expect((late as DeadlineExceededError).operation).toBe('listTables');
    const controller = new AbortController();
    const aborted = endpoints.ready({ signal: controller.signal }, 'listTables').catch((e: unknown) => e);
    controller.abort(new Error('stop'));
    expect(await aborted).toBeInstanceOf(OperationAbortedError);
    const gone = new AbortController();
    gone.abort();
    expect(await endpoints.ready({ signal: gone.signal }).catch((e: unknown) => e)).toBeInstanceOf(
      OperationAbortedError,
    );
    expect(await endpoints.ready({ signal: deadlineSignal(0) }).catch((e: unknown) => e)).toBeInstanceOf(
      DeadlineExceededError,
    );
  });
});

describe('probeEndpoint', () => {
  it('resolves when the endpoint accepts a TCP connection', async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      await probeEndpoint(`127.0.0.1:${port}`);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('rejects with UnreachableError naming host:port when the connection is refused', async () => {
    const endpoint = `127.0.0.1:${await freePort()}`;
    const error = await probeEndpoint(endpoint).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as UnreachableError).endpoint).toBe(endpoint);
    expect((error as UnreachableError).message).toMatch(
      new RegExp(`${endpoint.replace(/\./g, '\\.')} is unreachable: the connection was refused.*Fix:`),
    );
  });

  it('rejects an endpoint that is not HOST:PORT', async () => {
    await expect(probeEndpoint('no-port')).rejects.toBeInstanceOf(UnreachableError);
  });
});

describe('clientEndpoint', () => {
  const saved = process.env['BIGTABLE_EMULATOR_HOST'];
  const clients: Bigtable[] = [];
  const client = (options: ConstructorParameters<typeof Bigtable>[0]): Bigtable => {
    const bigtable = new Bigtable({ projectId: 'p', metricsEnabled: false, ...options });
    clients.push(bigtable);
    return bigtable;
  };
  afterEach(async () => {
    if (saved === undefined) delete process.env['BIGTABLE_EMULATOR_HOST'];
    else process.env['BIGTABLE_EMULATOR_HOST'] = saved;
    for (const bigtable of clients.splice(0)) await bigtable.close();
  });

  it('is the apiEndpoint for both services', () => {
    const bigtable = client({ apiEndpoint: '127.0.0.1:8086' });
    expect(clientEndpoint(bigtable, 'BigtableClient')).toBe('127.0.0.1:8086');
    expect(clientEndpoint(bigtable, 'BigtableTableAdminClient')).toBe('127.0.0.1:8086');
  });

  it('is the BIGTABLE_EMULATOR_HOST the client honours when no apiEndpoint is given', () => {
    process.env['BIGTABLE_EMULATOR_HOST'] = 'localhost:9035';
    expect(clientEndpoint(client({}), 'BigtableClient')).toBe('localhost:9035');
  });

  it("is Google's endpoint on port 443 otherwise (nothing is contacted here)", () => {
    delete process.env['BIGTABLE_EMULATOR_HOST'];
    const bigtable = client({});
    expect(clientEndpoint(bigtable, 'BigtableClient')).toBe('bigtable.googleapis.com:443');
    expect(clientEndpoint(bigtable, 'BigtableTableAdminClient')).toBe('bigtableadmin.googleapis.com:443');
  });
});
