import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BigtableMapper, PartialWriteError, UnreachableError } from '../../../src/index.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { freePort } from '../../../src/testing/index.js';
import { testInstanceId } from '../../support/emulator.js';
import { makeEntities } from '../../fixtures/entities.js';

const E = makeEntities('unreach');

/** A loopback address where nothing listens. */
async function deadHost(): Promise<string> {
  return `127.0.0.1:${await freePort()}`;
}

describe('an endpoint where nothing listens', () => {
  const mappers: BigtableMapper[] = [];
  afterAll(async () => {
    for (const mapper of mappers) await mapper.close();
  });

  it(
    'fails mapper.sync() with UnreachableError naming host:port, not after minutes of retries',
    { timeout: 20_000 },
    async () => {
      const host = await deadHost();
      const mapper = new BigtableMapper({ emulatorHost: host, instance: testInstanceId, entities: [E.Job] });
      mappers.push(mapper);
      const error = await mapper.sync().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnreachableError);
      expect((error as UnreachableError).endpoint).toBe(host);
      expect((error as UnreachableError).message).toContain(host);
      expect((error as UnreachableError).message).toContain('Fix:');
    },
  );

  it(
    'fails repository reads and writes with UnreachableError within seconds: save, saveMany, findOne, a scan',
    { timeout: 20_000 },
    async () => {
      const host = await deadHost();
      const mapper = new BigtableMapper({ emulatorHost: host, instance: testInstanceId, entities: [E.Job] });
      mappers.push(mapper);
      const jobs = mapper.getRepository(E.Job);
      const job = Object.assign(new E.Job(), { id: 'j1', status: 'new' });
      await expect(jobs.save(job)).rejects.toBeInstanceOf(UnreachableError);
      await expect(jobs.findOne({ id: 'j1' })).rejects.toBeInstanceOf(UnreachableError);
      const scan = (async () => {
        for await (const found of jobs.iterate({})) expect(found).toBeUndefined();
      })();
      await expect(scan).rejects.toBeInstanceOf(UnreachableError);
      const bulk = await jobs.saveMany([job, job]).catch((e: unknown) => e);
      expect(bulk).toBeInstanceOf(PartialWriteError);
      expect((bulk as PartialWriteError).succeeded).toBe(0);
      expect((bulk as PartialWriteError).failures.map((f) => f.cause)).toEqual([
        expect.any(UnreachableError),
        expect.any(UnreachableError),
      ]);
    },
  );

  it(
    'fails every driver call with UnreachableError, and probes again on the next call once something listens',
    { timeout: 20_000 },
    async () => {
      const host = await deadHost();
      const driver = createGoogleCloudDriver({ emulatorHost: host, instance: testInstanceId });
      try {
        const key = Buffer.from('k');
        const calls = [
          () => driver.listTables(),
          () => driver.getFamilies({ table: 't' }),
          () =>
            driver.checkAndMutate({
              table: 't',
              rowKey: key,
              predicate: undefined,
              onMatch: [],
              onNoMatch: [{ kind: 'deleteFromRow' }],
            }),
          () => driver.increment({ table: 't', rowKey: key, rules: [{ family: 'f', qualifier: 'q', amount: 1n }] }),
          () => driver.ready(),
        ];
        for (const call of calls) {
          const error = await call().catch((e: unknown) => e);
          expect(error).toBeInstanceOf(UnreachableError);
          expect((error as UnreachableError).endpoint).toBe(host);
        }
        const [, port] = host.split(':');
        const listener = createServer((socket) => socket.destroy());
        await new Promise<void>((resolve) => listener.listen(Number(port), '127.0.0.1', resolve));
        try {
          await driver.ready();
        } finally {
          await new Promise<void>((resolve) => listener.close(() => resolve()));
        }
      } finally {
        await driver.close();
      }
    },
  );
});
