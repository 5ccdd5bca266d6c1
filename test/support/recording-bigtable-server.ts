import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { grpcFrame, grpcMessage, lengthDelimitedFields, okMutateRowsEntries } from './grpc-wire.js';

/** One gRPC request the server received: its method, headers and top-level length-delimited fields. */
export interface RecordedRequest {
  /** The method's short name, e.g. `ReadRows`. */
  readonly method: string;
  readonly headers: http2.IncomingHttpHeaders;
  /** Every length-delimited field of the request message, by field number, in order. */
  readonly fields: ReadonlyMap<number, readonly Buffer[]>;
}

/** A loopback Bigtable data endpoint that records what it is sent (see {@link startRecordingBigtableServer}). */
export interface RecordingBigtableServer {
  /** `127.0.0.1:port`, for a mapper's `emulatorHost`. */
  readonly host: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP/2 server that speaks just enough of Bigtable's data API to
 * answer the driver: ReadRows with no rows, MutateRows with OK for every
 * entry, CheckAndMutateRow with "predicate not matched", SampleRowKeys with the
 * end key only; every other method
 * with UNIMPLEMENTED. It records each request, for tests of what goes on the
 * wire that the emulator would ignore (app profiles, headers).
 * @example
 * ```ts
 * const server = await startRecordingBigtableServer();
 * const mapper = new BigtableMapper({ emulatorHost: server.host, instance: 'i', appProfileId: 'batch' });
 * ```
 */
export async function startRecordingBigtableServer(): Promise<RecordingBigtableServer> {
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  const requests: RecordedRequest[] = [];
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const method = String(headers[':path'] ?? '')
        .split('/')
        .at(-1) as string;
      const fields = lengthDelimitedFields(grpcMessage(Buffer.concat(chunks)));
      requests.push({ method, headers, fields });
      const answer = answerOf(method, fields);
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () =>
        stream.sendTrailers({ 'grpc-status': answer === undefined ? '12' : '0', 'grpc-message': '' }),
      );
      stream.end(answer === undefined ? undefined : grpcFrame(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The response message of `method`, or `undefined` for a method this server does not answer. */
function answerOf(method: string, fields: ReadonlyMap<number, readonly Buffer[]>): Buffer | undefined {
  switch (method) {
    case 'ReadRows':
    case 'CheckAndMutateRow':
    case 'SampleRowKeys': // one sample: the empty end key at offset 0
      return Buffer.alloc(0);
    case 'MutateRows':
      return okMutateRowsEntries(fields.get(2)?.length ?? 0);
    default:
      return undefined;
  }
}
