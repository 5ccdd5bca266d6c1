import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, ValidationError } from '../../../src/index.js';
import { cli } from '../cli/run-cli.js';
import { MUTATE_FEATURE_FLAGS, READ_FEATURE_FLAGS } from '../../../src/driver/feature-flags.js';
import {
  startRecordingBigtableServer,
  type RecordedRequest,
  type RecordingBigtableServer,
} from '../../support/recording-bigtable-server.js';

@Entity({ table: 'profiles' })
@Family('d')
class Item {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) name?: string;
}

/** Where each data request carries its app profile id (the field number in Bigtable's data.proto). */
const APP_PROFILE_FIELD: Readonly<Record<string, number>> = {
  ReadRows: 5,
  MutateRows: 3,
  CheckAndMutateRow: 7,
  SampleRowKeys: 2,
};

function profileOf(request: RecordedRequest): string | undefined {
  return request.fields.get(APP_PROFILE_FIELD[request.method] as number)?.[0]?.toString('utf8');
}

let server: RecordingBigtableServer;
let mapper: BigtableMapper;

beforeAll(async () => {
  server = await startRecordingBigtableServer();
  mapper = new BigtableMapper({ emulatorHost: server.host, instance: 'i', entities: [Item], appProfileId: 'serving' });
});

afterAll(async () => {
  await mapper.close();
  await server.close();
});

/** The requests `run` made, as method and app profile. */
async function sent(run: () => Promise<unknown>): Promise<[string, string | undefined][]> {
  const from = server.requests.length;
  await run();
  return server.requests.slice(from).map((r) => [r.method, profileOf(r)]);
}

describe('app profiles on the wire (a loopback gRPC server records each request)', () => {
  it("every data RPC carries the mapper's app profile", async () => {
    const items = mapper.getRepository(Item);
    expect(await sent(() => items.save(Object.assign(new Item(), { id: 'a', name: 'x' })))).toEqual([
      ['MutateRows', 'serving'],
    ]);
    expect(await sent(() => items.findOne({ id: 'a' }))).toEqual([['ReadRows', 'serving']]);
    expect(
      await sent(() =>
        items.saveMany([
          Object.assign(new Item(), { id: 'b', name: 'y' }),
          Object.assign(new Item(), { id: 'c', name: 'z' }),
        ]),
      ),
    ).toEqual([['MutateRows', 'serving']]);
    const guarded = Object.assign(new Item(), { id: 'a', name: 'x' });
    expect(await sent(() => items.saveIf(guarded, { column: 'name', equals: 'w' }))).toEqual([
      ['CheckAndMutateRow', 'serving'],
    ]);
  });

  it("a call's own appProfileId wins, for that call only", async () => {
    const items = mapper.getRepository(Item);
    expect(
      await sent(async () => {
        for await (const _ of items.iterate({ appProfileId: 'batch-boost' })) void _;
      }),
    ).toEqual([['ReadRows', 'batch-boost']]);
    expect(await sent(() => items.findOne({ id: 'a' }, { appProfileId: 'other' }))).toEqual([['ReadRows', 'other']]);
    expect(await sent(() => items.findOne({ id: 'a' }))).toEqual([['ReadRows', 'serving']]);
    expect(await sent(() => mapper.planShards(Item, { shards: 2, appProfileId: 'batch-boost' }))).toEqual([
      ['SampleRowKeys', 'batch-boost'],
    ]);
    expect(
      await sent(async () => {
        for await (const _ of items.iterate({ parallelism: 4 })) void _;
      }),
    ).toEqual([
      ['SampleRowKeys', 'serving'],
      ['ReadRows', 'serving'],
    ]);
  });

  it('each data RPC carries the routing, attempt and feature headers the generated client would send', async () => {
    const items = mapper.getRepository(Item);
    const from = server.requests.length;
    await items.save(Object.assign(new Item(), { id: 'h', name: 'x' }));
    await items.findOne({ id: 'h' });
    await mapper.planShards(Item, { shards: 2 });
    const headers = new Map(server.requests.slice(from).map((r) => [r.method, r.headers]));
    expect([...headers.keys()].sort()).toEqual(['MutateRows', 'ReadRows', 'SampleRowKeys']);
    for (const sentHeaders of headers.values()) {
      expect(sentHeaders['x-goog-request-params']).toBe(
        'table_name=projects%2Femulator-project%2Finstances%2Fi%2Ftables%2Fprofiles&app_profile_id=serving',
      );
      expect(sentHeaders['bigtable-attempt']).toBe('0');
      expect(sentHeaders['x-goog-api-client']).toMatch(/^gl-node\/\d+\.\d+\.\d+ gccl\/\d+\.\d+\.\d+/);
    }
    expect(headers.get('ReadRows')?.['bigtable-features']).toBe(READ_FEATURE_FLAGS);
    expect(headers.get('MutateRows')?.['bigtable-features']).toBe(MUTATE_FEATURE_FLAGS);
    expect(headers.get('SampleRowKeys')?.['bigtable-features']).toBeUndefined();
  });

  it('without any, the request names no profile (the instance default)', async () => {
    const plain = new BigtableMapper({ emulatorHost: server.host, instance: 'i', entities: [Item] });
    try {
      expect(await sent(() => plain.getRepository(Item).findOne({ id: 'a' }))).toEqual([['ReadRows', undefined]]);
    } finally {
      await plain.close();
    }
  });

  it('a malformed app profile id is a ValidationError before anything is sent', async () => {
    const items = mapper.getRepository(Item);
    const before = server.requests.length;
    for (const appProfileId of ['', '-x', 'a b', 'x'.repeat(51), 7])
      await expect(items.findOne({ id: 'a' }, { appProfileId: appProfileId as string })).rejects.toThrow(
        ValidationError,
      );
    expect(server.requests.length).toBe(before);
    expect(() => new BigtableMapper({ emulatorHost: server.host, instance: 'i', appProfileId: '.x' })).toThrow(
      /BigtableMapper appProfileId must be an app profile id/,
    );
  });

  it('the command line sends --app-profile, else BIGTABLE_APP_PROFILE, with every read of a census', async () => {
    const census = async (flags: string[], env: Record<string, string> = {}): Promise<(string | undefined)[]> => {
      const from = server.requests.length;
      const run = await cli(
        [
          '-e',
          'examples/entities.ts',
          '--emulator-host',
          server.host,
          '--instance',
          'i',
          ...flags,
          '--json',
          'census',
          'Activity',
        ],
        env,
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const reads = server.requests.slice(from).filter((r) => r.method === 'ReadRows');
      expect(reads.length).toBeGreaterThan(0);
      return [...new Set(reads.map(profileOf))];
    };
    expect(await census(['--app-profile', 'boost'])).toEqual(['boost']);
    expect(await census([], { BIGTABLE_APP_PROFILE: 'from-env' })).toEqual(['from-env']);
    expect(await census(['--app-profile', 'flag'], { BIGTABLE_APP_PROFILE: 'from-env' })).toEqual(['flag']);
    expect(await census([])).toEqual([undefined]);
  });
});
