import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  credentials,
  Server,
  ServerCredentials,
  status,
  type ServerWritableStream,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import { routingHeader, StubCalls, type RelayedStream } from '../../../src/driver/stub-calls.js';

const PATH = '/test.Echo/Repeat';
const bytes = (value: Buffer): Buffer => value;

/** A loopback gRPC server whose one streaming method answers each request byte back three times, then OK. */
const SERVICE: ServiceDefinition = {
  Repeat: {
    path: PATH,
    requestStream: false,
    responseStream: true,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  },
};

interface Received {
  readonly request: Buffer;
  readonly headers: Record<string, unknown>;
}

let server: Server;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = new Server();
  server.addService(SERVICE, {
    Repeat: (call: ServerWritableStream<Buffer, Buffer>) => {
      received.push({ request: call.request, headers: call.metadata.getMap() });
      if (call.request.toString() === 'fail') {
        call.emit('error', { code: status.FAILED_PRECONDITION, details: 'asked to fail' });
        return;
      }
      for (let i = 0; i < 3; i++) call.write(Buffer.concat([call.request, Buffer.from(`#${i}`)]));
      call.end();
    },
  });
  port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
});

afterAll(() => {
  server.forceShutdown();
});

/** A generated client's stand-in: `initialize()` resolves to a grpc-js Client on the loopback server. */
function clientWithStub(): { initialize(): Promise<Client>; stub: Client } {
  const stub = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  return { initialize: () => Promise.resolve(stub), stub };
}

/** Every event of a relayed stream until it closes, in order. */
function events(stream: RelayedStream): Promise<string[]> {
  return new Promise((resolve) => {
    const seen: string[] = [];
    stream.on('data', (message: string) => seen.push(`data ${message}`));
    stream.on('error', (error: { code?: number }) => seen.push(`error ${error.code}`));
    stream.on('end', () => seen.push('end'));
    stream.on('close', () => resolve(seen));
  });
}

function neverCalled(): RelayedStream {
  throw new Error('the generated method must not be called');
}

describe('StubCalls: streaming calls sent as bytes on the generated client’s own stub', () => {
  it('sends the encoded request with its headers and decodes each response message', async () => {
    const client = clientWithStub();
    const calls = new StubCalls(client);
    const stream = calls.open(
      {
        path: PATH,
        request: () => Buffer.from('abc'),
        decode: (message) => message.toString().toUpperCase(),
        headers: {
          'x-goog-request-params': routingHeader('projects/p/instances/i/tables/t', 'batch'),
          'bigtable-attempt': '2',
        },
      },
      neverCalled,
    );
    expect(await events(stream)).toEqual(['data ABC#0', 'data ABC#1', 'data ABC#2', 'end']);
    const last = received.at(-1) as Received;
    expect(last.request.toString()).toBe('abc');
    expect(last.headers['x-goog-request-params']).toBe(
      'table_name=projects%2Fp%2Finstances%2Fi%2Ftables%2Ft&app_profile_id=batch',
    );
    expect(last.headers['bigtable-attempt']).toBe('2');
    client.stub.close();
  });

  it('relays a failed status as an error with its gRPC code', async () => {
    const client = clientWithStub();
    const stream = new StubCalls(client).open(
      { path: PATH, request: () => Buffer.from('fail'), decode: String, headers: {} },
      neverCalled,
    );
    const seen = await events(stream);
    expect(seen).toContain(`error ${status.FAILED_PRECONDITION}`);
    expect(seen.some((event) => event.startsWith('data'))).toBe(false);
    client.stub.close();
  });

  it('a call cancelled before the stub is known closes at once and is never sent', async () => {
    const client = clientWithStub();
    const calls = new StubCalls(client);
    const before = received.length;
    const stream = calls.open(
      { path: PATH, request: () => Buffer.from('never'), decode: String, headers: {} },
      neverCalled,
    );
    const seen = events(stream);
    stream.cancel();
    expect(await seen).toEqual([]);
    // A later call on the same client goes out, so the stub was ready by then.
    expect(
      await events(
        calls.open({ path: PATH, request: () => Buffer.from('x'), decode: String, headers: {} }, neverCalled),
      ),
    ).toHaveLength(4);
    expect(received.slice(before).map((r) => r.request.toString())).toEqual(['x']);
    client.stub.close();
  });

  it('takes the generated method when the stub is not a grpc-js Client, and when there is no initialize()', async () => {
    const fallback = (): RelayedStream => {
      const stub = clientWithStub().stub;
      const stream = stub.makeServerStreamRequest(PATH, bytes, String, Buffer.from('via generated'));
      stream.on('close', () => stub.close());
      return stream as unknown as RelayedStream;
    };
    const call = { path: PATH, request: () => Buffer.from('unused'), decode: String, headers: {} };
    const notAClient = new StubCalls({ initialize: () => Promise.resolve({ readRows: () => undefined }) });
    expect(await events(notAClient.open(call, fallback))).toContain('data via generated#0');
    expect(await events(new StubCalls({}).open(call, fallback))).toContain('data via generated#2');
  });

  it('fails every call with the error of a client that could not initialize', async () => {
    const broken = new StubCalls({
      initialize: () => Promise.reject(Object.assign(new Error('no credentials'), { code: 16 })),
    });
    const call = { path: PATH, request: () => Buffer.from('x'), decode: String, headers: {} };
    expect(await events(broken.open(call, neverCalled))).toEqual(['error 16']);
    expect(await events(broken.open(call, neverCalled))).toEqual(['error 16']);
  });

  it('the routing header leaves out an unset app profile and escapes the table name as the generated client does', () => {
    expect(routingHeader('projects/p/instances/i/tables/a b', undefined)).toBe(
      'table_name=projects%2Fp%2Finstances%2Fi%2Ftables%2Fa%20b',
    );
  });
});
