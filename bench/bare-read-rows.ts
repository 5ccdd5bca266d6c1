import { v2 } from '@google-cloud/bigtable';
// The gRPC library the client's generated layer runs on (one copy in the tree:
// credentials from another copy would be refused by its channel).
import { credentials } from '@grpc/grpc-js';

/** One `ReadRowsResponse` as the generated client decodes it, the part the bare loop reads. */
interface BareResponse {
  readonly chunks?: readonly { readonly commitRow?: boolean | null }[] | null;
}

/** The response stream of `v2.BigtableClient.readRows`, the part the bare loop uses. */
interface BareStream {
  on(event: 'data', listener: (response: BareResponse) => void): this;
  on(event: 'end', listener: () => void): this;
  on(event: 'error', listener: (error: unknown) => void): this;
  cancel(): void;
}

/**
 * The client's exported generated data client (`v2.BigtableClient`) on its
 * own channel to a loopback emulator, with insecure gRPC credentials: no
 * `Bigtable` wrapper, no channel pool, no metrics. Close it when done.
 * @example
 * ```ts
 * const client = bareDataClient('127.0.0.1:8086', 'bench-project');
 * try { await countRows(client, { tableName }); } finally { await client.close(); }
 * ```
 */
export function bareDataClient(emulatorHost: string, projectId: string): v2.BigtableClient {
  const colon = emulatorHost.lastIndexOf(':');
  const port = Number(emulatorHost.slice(colon + 1));
  if (colon <= 0 || !Number.isInteger(port) || port <= 0)
    throw new Error(`emulator host must be HOST:PORT, got ${JSON.stringify(emulatorHost)}`);
  return new v2.BigtableClient({
    servicePath: emulatorHost.slice(0, colon),
    port,
    sslCreds: credentials.createInsecure(),
    projectId,
    // Skips the credentials / metadata-server probe, as the mapper's emulator options do.
    universeDomain: 'googleapis.com',
  });
}

/** The ReadRows request of the bare loop: a table, optionally a row limit; no filter, every row. @example `{ tableName: table.name, rowsLimit: 100 }` */
export interface BareReadRequest {
  readonly tableName: string;
  readonly rowsLimit?: number;
}

/**
 * The bare ReadRows loop, Node's ceiling for a full scan: one RPC, every
 * response's chunks decoded by the generated client (gRPC + protobuf), rows
 * counted by their `commitRow` chunk, nothing merged, converted or built.
 * `onRow(chunk)` is called once per committed row.
 * @example `const rows = await countRows(client, { tableName }, (chunk) => keep(chunk));`
 */
export function countRows(
  client: v2.BigtableClient,
  request: BareReadRequest,
  onRow: (commitChunk: unknown) => void = () => undefined,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let rows = 0;
    let failed = false;
    const stream = client.readRows(request) as unknown as BareStream;
    stream.on('data', (response) => {
      const chunks = response.chunks;
      if (failed || chunks == null) return;
      for (const chunk of chunks) {
        if (chunk.commitRow !== true) continue;
        rows += 1;
        try {
          onRow(chunk);
        } catch (error) {
          failed = true;
          stream.cancel();
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
      }
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(rows));
  });
}
