import { PassThrough } from 'node:stream';
import { Bigtable } from '@google-cloud/bigtable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataClient, type GeneratedDataClient } from '../../../src/driver/data-client.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { DriverError } from '../../../src/errors/errors.js';
import { encodeMutateEntry } from '../../../src/driver/data-wire-requests.js';

const TABLE = 'projects/p/instances/i/tables/t';

interface Call {
  readonly method: string;
  readonly message: unknown;
  readonly options: {
    otherArgs?: { headers?: Record<string, unknown> };
    retryRequestOptions?: { currentRetryAttempt?: number; noResponseRetries?: number; shouldRetryFn?: () => boolean };
    timeout?: number;
    signal?: AbortSignal;
  };
}

/** A fake generated client recording every call; unary calls answer `response` (or fail with `error`). */
function fakeGenerated(answer: { response?: object; error?: Error; projectId?: string } = {}) {
  const calls: Call[] = [];
  let closes = 0;
  const stream = (): PassThrough => Object.assign(new PassThrough({ objectMode: true }), { cancel: () => undefined });
  const unary =
    (method: string) =>
    (message: unknown, options: Call['options'], callback: (err: Error | null, response?: object) => void) => {
      calls.push({ method, message, options });
      setImmediate(() => callback(answer.error ?? null, answer.response));
    };
  const client = {
    readRows: (message: unknown, options: Call['options']) => {
      calls.push({ method: 'readRows', message, options });
      return stream();
    },
    mutateRows: (message: unknown, options: Call['options']) => {
      calls.push({ method: 'mutateRows', message, options });
      return stream();
    },
    checkAndMutateRow: unary('checkAndMutateRow'),
    readModifyWriteRow: unary('readModifyWriteRow'),
    getProjectId: () =>
      answer.projectId === undefined ? Promise.reject(new Error('no credentials')) : Promise.resolve(answer.projectId),
    close: () => {
      closes += 1;
      return Promise.resolve();
    },
  };
  return { client: client as unknown as GeneratedDataClient, calls, closes: () => closes };
}

/** A DataClient over `bigtable` whose generated client is `fake`, and the options it was created with. */
function dataClient(bigtable: Bigtable, fake = fakeGenerated()) {
  const created: unknown[] = [];
  const data = new DataClient(bigtable, (options) => {
    created.push(options);
    return fake.client;
  });
  return { data, created, ...fake };
}

const emulatorClient = (): Bigtable =>
  createGoogleCloudDriver({ emulatorHost: '127.0.0.1:8086', instance: 'i' }).bigtable;
const message = { tableName: TABLE, rows: { rowKeys: [], rowRanges: [{}] } };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('DataClient', () => {
  it("creates the generated client once, on the first call, from the Bigtable client's own data options", () => {
    const bigtable = emulatorClient();
    const { data, created } = dataClient(bigtable);
    expect(created).toHaveLength(0);
    data.readRows(message, 0);
    data.mutateRows({ tableName: TABLE, entries: [] }, 0);
    expect(created).toEqual([bigtable.options.BigtableClient]);
    expect(created[0]).toBe(bigtable.options.BigtableClient);
    expect(created[0]).toMatchObject({
      servicePath: '127.0.0.1',
      port: 8086,
      libName: 'gccl',
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
    });
    expect((created[0] as { sslCreds?: unknown }).sslCreds).toBeDefined();
  });

  it('keeps keepalive and app profile the caller set in clientOptions', () => {
    const { bigtable } = createGoogleCloudDriver({
      clientOptions: {
        projectId: 'p',
        apiEndpoint: '127.0.0.1:9',
        appProfileId: 'batch',
        'grpc.keepalive_time_ms': 5_000,
      } as ConstructorParameters<typeof Bigtable>[0] & object,
      instance: 'i',
    });
    const { data, created } = dataClient(bigtable);
    data.readRows(message, 0);
    expect(created[0]).toMatchObject({ 'grpc.keepalive_time_ms': 5_000, 'grpc.keepalive_timeout_ms': 10_000 });
    expect(bigtable.appProfileId).toBe('batch');
  });

  it('sends reads with the attempt and feature headers and the client stream retries off, the message as given', () => {
    const { data, calls } = dataClient(emulatorClient());
    data.readRows(message, 2);
    expect(calls[0]?.message).toBe(message);
    expect(calls[0]?.options.otherArgs?.headers).toEqual({ 'bigtable-attempt': 2, 'bigtable-features': 'IAE=' });
    expect(calls[0]?.options.retryRequestOptions).toMatchObject({
      currentRetryAttempt: 0,
      noResponseRetries: 0,
      objectMode: true,
    });
    expect(calls[0]?.options.retryRequestOptions?.shouldRetryFn?.()).toBe(false);
  });

  it('sends writes with the attempt header, the rate-limit feature flags and the client stream retries off', () => {
    const { data, calls } = dataClient(emulatorClient());
    data.mutateRows({ tableName: TABLE, entries: [] }, 4);
    // FeatureFlags { mutate_rows_rate_limit (field 3): true, mutate_rows_rate_limit2 (field 5): true }
    expect(calls[0]?.options.otherArgs?.headers).toEqual({ 'bigtable-attempt': 4, 'bigtable-features': 'GAEoAQ==' });
    expect([...Buffer.from('GAEoAQ==', 'base64')]).toEqual([(3 << 3) | 0, 1, (5 << 3) | 0, 1]);
    expect(calls[0]?.options.retryRequestOptions).toMatchObject({ currentRetryAttempt: 0, noResponseRetries: 0 });
    expect(calls[0]?.options.retryRequestOptions?.shouldRetryFn?.()).toBe(false);
  });

  it('hands the generated method its entries, encoded once, read back into messages', () => {
    const { data, calls } = dataClient(emulatorClient());
    const entry = encodeMutateEntry({
      table: 't',
      rowKey: Buffer.from('r2'),
      rowKeyText: 'r2',
      mutations: [{ kind: 'deleteFromRow' }],
      idempotent: true,
    });
    data.mutateRows({ tableName: TABLE, entries: [entry] }, 0);
    expect(calls[0]?.message).toEqual({
      tableName: TABLE,
      entries: [{ rowKey: Buffer.from('r2'), mutations: [{ deleteFromRow: {} }] }],
    });
  });

  it("hands unary calls the attempt's gax options and settles with the client's answer", async () => {
    const ok = dataClient(emulatorClient(), fakeGenerated({ response: { predicateMatched: true } }));
    const signal = new AbortController().signal;
    const check = {
      tableName: TABLE,
      rowKey: Buffer.from('k'),
      predicateFilter: null,
      trueMutations: [],
      falseMutations: [],
    };
    expect(await ok.data.checkAndMutateRow(check, { timeout: 1_000, signal })).toEqual({ predicateMatched: true });
    expect(ok.calls[0]?.options).toEqual({ timeout: 1_000, signal });
    const error = Object.assign(new Error('5 NOT_FOUND'), { code: 5 });
    const failing = dataClient(emulatorClient(), fakeGenerated({ error }));
    await expect(
      failing.data.readModifyWriteRow({ tableName: TABLE, rowKey: Buffer.from('k'), rules: [] }, { signal }),
    ).rejects.toBe(error);
  });

  it('closes the generated client it created, only that one, and fails every later call at once with gRPC 10', async () => {
    const unused = dataClient(emulatorClient());
    await unused.data.close();
    expect(unused.created).toHaveLength(0);

    const { data, closes, created, calls } = dataClient(emulatorClient());
    data.readRows(message, 0);
    await data.close();
    expect(closes()).toBe(1);
    const stream = data.readRows(message, 0);
    const streamError = await new Promise((resolve) => stream.on('error', resolve));
    expect(streamError).toMatchObject({ code: 10, message: 'The client has already been closed.' });
    const signal = new AbortController().signal;
    await expect(
      data.checkAndMutateRow(
        { tableName: TABLE, rowKey: Buffer.from('k'), predicateFilter: null, trueMutations: [], falseMutations: [] },
        { signal },
      ),
    ).rejects.toMatchObject({ code: 10 });
    expect(created).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  describe('project id', () => {
    const tokenName = 'projects/{{projectId}}/instances/i/tables/t';

    it('looks it up through the credentials when the client was given none, and puts it in table names', async () => {
      vi.stubEnv('BIGTABLE_EMULATOR_HOST', '');
      const bigtable = new Bigtable({ metricsEnabled: false });
      const { data } = dataClient(bigtable, fakeGenerated({ projectId: 'found' }));
      expect(data.needsProjectId).toBe(true);
      expect(data.tableName(bigtable.instance('i').table('t').name)).toBe(tokenName);
      await data.resolveProjectId();
      expect(data.needsProjectId).toBe(false);
      expect(data.tableName(bigtable.instance('i').table('t').name)).toBe('projects/found/instances/i/tables/t');
    });

    it('fails with DriverError when the lookup fails, and tries again on the next call', async () => {
      vi.stubEnv('BIGTABLE_EMULATOR_HOST', '');
      const { data } = dataClient(new Bigtable({ metricsEnabled: false }), fakeGenerated({}));
      await expect(data.resolveProjectId()).rejects.toBeInstanceOf(DriverError);
      expect(data.needsProjectId).toBe(true);
    });

    it('needs none with a project id, or on an emulator (which takes the placeholder as it is)', async () => {
      const given = dataClient(new Bigtable({ projectId: 'mine', metricsEnabled: false }));
      expect(given.data.needsProjectId).toBe(false);
      expect(given.data.tableName('projects/mine/instances/i/tables/t')).toBe('projects/mine/instances/i/tables/t');
      const emulator = dataClient(new Bigtable({ apiEndpoint: '127.0.0.1:8086', metricsEnabled: false }));
      expect(emulator.data.needsProjectId).toBe(false);
      await emulator.data.resolveProjectId();
      expect(emulator.data.tableName(tokenName)).toBe(tokenName);
    });
  });
});
