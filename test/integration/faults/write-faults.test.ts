import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RowData } from '../../../src/model/driver.js';
import { createGoogleCloudDriver, type GoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { DeadlineExceededError, DriverError } from '../../../src/errors/index.js';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { rowsOf } from '../../support/rows-of.js';
import { grpcFrame, grpcMessage, lengthDelimitedFields, okMutateRowsEntries } from '../../support/grpc-wire.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

/**
 * MutateRows and MutateRow through the real client under network faults: TCP
 * resets and stalls from the fault proxy (grpc-js reports a reset connection
 * as 14 UNAVAILABLE, "read ECONNRESET" or "Connection dropped"), and an
 * HTTP/2 server that resets streams with INTERNAL_ERROR (grpc-js: 13
 * "Received RST_STREAM with code 2").
 */

const TS = 1_700_000_000_000_000;
let proxy: FaultProxy;
let proxied: GoogleCloudDriver;
let direct: GoogleCloudDriver;
let table: string;

beforeAll(async () => {
  proxy = await startFaultProxy(emulatorHost());
  proxied = createGoogleCloudDriver({ emulatorHost: proxy.host, instance: testInstanceId });
  direct = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
  table = uniqueTableId('write-faults');
  await direct.createTable({ table, families: [{ name: 'f', gc: undefined }] });
  expect(await proxied.mutateRows({ table, mutations: rows('warm', 2) })).toEqual([]);
});

afterEach(() => proxy.pass());

afterAll(async () => {
  await direct.deleteTable({ table }).catch(() => undefined);
  await proxied.close();
  await direct.close();
  await proxy.close();
});

/** `n` rows `<prefix>-000`…, each one 200-byte cell holding its key; every other row (odd i) non-idempotent when `mixed`. */
function rows(prefix: string, n: number, mixed = false): CompiledMutation[] {
  return Array.from({ length: n }, (_, i) => {
    const key = `${prefix}-${String(i).padStart(3, '0')}`;
    return {
      table,
      rowKey: Buffer.from(key),
      rowKeyText: key,
      mutations: [
        { kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: TS, value: Buffer.from(key.padEnd(200, '.')) },
      ],
      idempotent: !mixed || i % 2 === 0,
    };
  });
}

async function readPrefix(prefix: string): Promise<Map<string, RowData>> {
  const found = new Map<string, RowData>();
  for await (const row of rowsOf(
    direct.readRows({
      table,
      ranges: [
        {
          start: { key: Buffer.from(`${prefix}-`), inclusive: true },
          end: { key: Buffer.from(`${prefix}.`), inclusive: false },
        },
      ],
    }),
  )) {
    found.set(row.key.toString(), row);
  }
  return found;
}

const valueOf = (row: RowData | undefined): string | undefined => row?.cells['f']?.['q']?.[0]?.value.toString();

describe('MutateRows through the fault proxy', () => {
  it('a reset while the request is sent: idempotent entries are retried and written, non-idempotent ones fail with gRPC 14 and were not applied', async () => {
    const batch = rows('cut', 300, true);
    const opened = proxy.connectionsOpened;
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toServer' });
    const failures = await proxied.mutateRows(
      { table, mutations: batch },
      {
        signal: deadlineSignal(20_000),
        attemptTimeoutMs: 10_000,
      },
    );
    expect(proxy.connectionsOpened).toBeGreaterThan(opened);
    expect(failures.map((f) => f.index)).toEqual(batch.flatMap((m, i) => (m.idempotent ? [] : [i])));
    expect(new Set(failures.map((f) => f.grpcCode))).toEqual(new Set([14]));
    const found = await readPrefix('cut');
    expect([...found.keys()]).toEqual(batch.filter((m) => m.idempotent).map((m) => m.rowKeyText));
    for (const m of batch.filter((m) => m.idempotent))
      expect(valueOf(found.get(m.rowKeyText))).toBe(m.rowKeyText.padEnd(200, '.'));
  });

  it('concurrent batches under repeated resets: every entry reported written is present, every idempotent entry is written, a failed entry is non-idempotent', async () => {
    const batches = Array.from({ length: 8 }, (_, b) => rows(`many${b}`, 40, true));
    proxy.faultAfter({ bytes: 25_000, fault: 'reset', direction: 'toServer', every: true });
    const outcomes = await Promise.all(
      batches.map((batch) =>
        proxied
          .mutateRows({ table, mutations: batch }, { signal: deadlineSignal(20_000), attemptTimeoutMs: 10_000 })
          .catch((error: unknown) => error),
      ),
    );
    proxy.pass();
    let failed = 0;
    for (const [b, batch] of batches.entries()) {
      const outcome = outcomes[b];
      const failedIndexes =
        outcome instanceof DriverError
          ? new Set(batch.map((_, i) => i))
          : new Set((outcome as { index: number }[]).map((f) => f.index));
      const found = await readPrefix(`many${b}`);
      for (const [i, m] of batch.entries()) {
        if (failedIndexes.has(i)) {
          failed += 1;
          expect(m.idempotent, `${m.rowKeyText} failed although idempotent`).toBe(false);
        } else {
          expect(valueOf(found.get(m.rowKeyText)), `${m.rowKeyText} reported written`).toBe(
            m.rowKeyText.padEnd(200, '.'),
          );
        }
      }
    }
    expect(failed).toBeGreaterThan(0);
  });

  it(
    'under a stall settles at its deadline: the unconfirmed entries fail with DEADLINE_EXCEEDED',
    { timeout: 15_000 },
    async () => {
      const batch = rows('stall', 20);
      proxy.stall();
      const failures = await proxied.mutateRows(
        { table, mutations: batch },
        { signal: deadlineSignal(500), attemptTimeoutMs: 60_000 },
      );
      expect(failures.map((f) => f.index)).toEqual(batch.map((_, i) => i));
      expect(new Set(failures.map((f) => f.grpcCode))).toEqual(new Set([4]));
      expect((failures[0] as { cause?: unknown }).cause).toBeInstanceOf(DeadlineExceededError);
    },
  );

  it(
    'a stall that ends: the attempt timeout cuts the stalled attempt and a retry on a new connection writes every entry',
    { timeout: 15_000 },
    async () => {
      const batch = rows('recover', 20);
      proxy.stall();
      setTimeout(() => proxy.pass(), 600);
      expect(
        await proxied.mutateRows(
          { table, mutations: batch },
          { signal: deadlineSignal(10_000), attemptTimeoutMs: 250 },
        ),
      ).toEqual([]);
      expect((await readPrefix('recover')).size).toBe(20);
    },
  );
});

describe('MutateRow through the fault proxy', () => {
  it('under a stall rejects with DeadlineExceededError at its deadline', { timeout: 15_000 }, async () => {
    proxy.stall();
    await expect(
      proxied.mutateRow(rows('one-stall', 1)[0] as CompiledMutation, { signal: deadlineSignal(300) }),
    ).rejects.toBeInstanceOf(DeadlineExceededError);
  });

  it('retries an idempotent row cut by a reset; sends a non-idempotent row once and rejects with gRPC 14', async () => {
    const [idempotent, nonIdempotent] = rows('one-reset', 2, true) as [CompiledMutation, CompiledMutation];
    const big = (m: CompiledMutation): CompiledMutation => ({
      ...m,
      mutations: Array.from({ length: 200 }, (_, i) => ({
        kind: 'setCell',
        family: 'f',
        qualifier: `q${i}`,
        timestampMicros: TS,
        value: Buffer.alloc(200, 'v'),
      })),
    });
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toServer' });
    await proxied.mutateRow(big(idempotent), { signal: deadlineSignal(20_000) });
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toServer' });
    const error = await proxied
      .mutateRow(big(nonIdempotent), { signal: deadlineSignal(20_000) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBe(14);
    expect([...(await readPrefix('one-reset')).keys()]).toEqual([idempotent.rowKeyText]);
  });
});

describe('MutateRows against a server resetting streams with RST_STREAM INTERNAL_ERROR', () => {
  let server: ResettingServer;
  let driver: GoogleCloudDriver;
  beforeAll(async () => {
    server = await startResettingServer();
    driver = createGoogleCloudDriver({ emulatorHost: server.host, instance: testInstanceId });
  });
  afterAll(async () => {
    await driver.close();
    await server.close();
  });

  it('retries the idempotent entries and fails the non-idempotent one with gRPC 13 RST_STREAM', async () => {
    server.resetNext = 1;
    const failures = await driver.mutateRows({
      table: 't',
      mutations: [row('t', 'a', true), row('t', 'n', false), row('t', 'b', true)],
    });
    expect(failures.map((f) => [f.index, f.grpcCode])).toEqual([[1, 13]]);
    expect(failures[0]?.message).toMatch(/RST_STREAM with code 2/);
    expect(server.entriesPerCall).toEqual([3, 2]);
  });

  it('retries a single idempotent row', async () => {
    server.resetNext = 2;
    server.entriesPerCall.length = 0;
    await driver.mutateRow(row('t', 'a', true));
    expect(server.entriesPerCall).toEqual([1, 1, 1]);
  });
});

function row(tableId: string, key: string, idempotent: boolean): CompiledMutation {
  return {
    table: tableId,
    rowKey: Buffer.from(key),
    rowKeyText: key,
    mutations: [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: TS, value: Buffer.from('v') }],
    idempotent,
  };
}

interface ResettingServer {
  readonly host: string;
  /** How many of the next calls are reset before any response. */
  resetNext: number;
  /** Entries in each MutateRows request received, reset or answered. */
  readonly entriesPerCall: number[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP/2 gRPC server that answers MutateRows: the next `resetNext`
 * calls get an RST_STREAM with INTERNAL_ERROR (as a front end dropping a
 * stream would send), the others an OK status for every entry.
 */
async function startResettingServer(): Promise<ResettingServer> {
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  const state: ResettingServer = {
    host: '',
    resetNext: 0,
    entriesPerCall: [],
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('stream', (stream) => {
    stream.on('error', () => undefined);
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const entries = lengthDelimitedFields(grpcMessage(Buffer.concat(chunks))).get(2)?.length ?? 0;
      state.entriesPerCall.push(entries);
      if (state.resetNext > 0) {
        state.resetNext -= 1;
        stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
        return;
      }
      const frame = grpcFrame(okMutateRowsEntries(entries));
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': '' }));
      stream.end(frame);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, { host: `127.0.0.1:${(server.address() as AddressInfo).port}` });
}
