import http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoogleCloudDriver, type GoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { testInstanceId } from '../../support/emulator.js';
import {
  grpcFrame,
  grpcMessage,
  lengthDelimitedFields,
  okMutateRowsEntries,
  varintBytes,
} from '../../support/grpc-wire.js';

/**
 * Server-driven flow control of MutateRows through the real client: a
 * loopback HTTP/2 gRPC server (the emulator never sends RateLimitInfo)
 * answers each call with OK entries and the RateLimitInfo the test scripts,
 * and the driver's send rate follows it: on at 10 calls/s once asked, scaled
 * by the factor clamped to 0.7..1.3, at most once per period, off again when
 * the server stops sending it. The requests carry the feature flags. How a
 * call waits for its permit is tested on a fake clock
 * (test/unit/driver/mutate-rows-limiter.test.ts).
 */

/** What the server adds to its next answers: a RateLimitInfo (factor, period in seconds) or none. */
type Script = { factor: number; periodSeconds: number } | undefined;

interface RateLimitServer {
  readonly host: string;
  /** RateLimitInfo of the next answers, in order; once used up, the last one repeats. */
  script: Script[];
  /** The `bigtable-features` header of every MutateRows call received. */
  readonly features: string[];
  close(): Promise<void>;
}

const TS = 1_700_000_000_000_000;

function row(key: string): CompiledMutation {
  return {
    table: 't',
    rowKey: Buffer.from(key),
    rowKeyText: key,
    mutations: [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: TS, value: Buffer.from('v') }],
    idempotent: true,
  };
}

let server: RateLimitServer;
let driver: GoogleCloudDriver;

beforeAll(async () => {
  server = await startRateLimitServer();
  driver = createGoogleCloudDriver({ emulatorHost: server.host, instance: testInstanceId });
});

afterAll(async () => {
  await driver.close();
  await server.close();
});

describe('MutateRows flow control from RateLimitInfo', () => {
  it('announces the flags, turns on at 10 calls/s, follows the clamped factor once per period, and turns off again', async () => {
    const limiter = driver.mutateRowsLimiter;
    server.script = [undefined];
    expect(await driver.mutateRows({ table: 't', mutations: [row('a')] })).toEqual([]);
    expect(limiter.enabled).toBe(false);
    // mutate_rows_rate_limit (3) and mutate_rows_rate_limit2 (5)
    expect([...Buffer.from(server.features[0] ?? '', 'base64')]).toEqual([0x18, 1, 0x28, 1]);

    // A factor of 0.5 is clamped to 0.7: 10 -> 7 calls/s; the next update waits out the 1 s period.
    server.script = [{ factor: 0.5, periodSeconds: 1 }];
    await driver.mutateRows({ table: 't', mutations: [row('b')] });
    expect(limiter.enabled).toBe(true);
    expect(limiter.qps).toBeCloseTo(7, 10);
    server.script = [{ factor: 5, periodSeconds: 1 }];
    await driver.mutateRows({ table: 't', mutations: [row('c')] });
    expect(limiter.qps).toBeCloseTo(7, 10); // within the period: unchanged
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await driver.mutateRows({ table: 't', mutations: [row('d')] });
    expect(limiter.qps).toBeCloseTo(9.1, 10); // a factor of 5 is clamped to 1.3: 7 x 1.3

    // A response without RateLimitInfo turns it off once the period has passed.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    server.script = [undefined];
    await driver.mutateRows({ table: 't', mutations: [row('f')] });
    expect(limiter.enabled).toBe(false);
    expect(server.features.every((f) => f === server.features[0])).toBe(true);
  });
});

/**
 * A loopback HTTP/2 server that answers every MutateRows call with an OK
 * status per entry and, per its script, a RateLimitInfo.
 */
async function startRateLimitServer(): Promise<RateLimitServer> {
  const http = http2.createServer();
  const sockets = new Set<Socket>();
  http.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const state: RateLimitServer = {
    host: '',
    script: [],
    features: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  http.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    state.features.push(String(headers['bigtable-features'] ?? ''));
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const entries = lengthDelimitedFields(grpcMessage(Buffer.concat(chunks))).get(2)?.length ?? 0;
      const info = state.script.length > 1 ? state.script.shift() : state.script[0];
      const frame = grpcFrame(mutateRowsResponse(entries, info));
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': '' }));
      stream.end(frame);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, { host: `127.0.0.1:${(http.address() as AddressInfo).port}` });
}

/** A MutateRowsResponse: `n` OK entries, and field 3 `rate_limit_info` { period (1): Duration { seconds (1) }, factor (2): double }. */
function mutateRowsResponse(n: number, info: Script): Buffer {
  const parts: Buffer[] = [okMutateRowsEntries(n)];
  if (info !== undefined) {
    const period = Buffer.from([0x08, ...varintBytes(info.periodSeconds)]);
    const factor = Buffer.alloc(8);
    factor.writeDoubleLE(info.factor);
    const body = Buffer.concat([Buffer.from([0x0a, period.length]), period, Buffer.from([0x11]), factor]);
    parts.push(Buffer.from([0x1a, body.length]), body);
  }
  return Buffer.concat(parts);
}
