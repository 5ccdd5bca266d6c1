import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Column,
  Entity,
  Family,
  KeyPart,
  Salt,
  range,
  type BigtableMapper,
  type ScanQuery,
} from '../../../src/index.js';
import type { Repository } from '../../../src/index.js';
import { closeMapper, openMapper, rawKeys, rawTable } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';
import { seed003SaltedKey } from '../../../examples/hot-users/seed-003-key.js';

const PATHS_TABLE = uniqueTableId('verbatim-paths');
const ACTIVITY_TABLE = uniqueTableId('verbatim-s003');

/** A hand-written `tenant#path` table: paths hold `#`, `%`, and may be empty. */
@Entity({ table: PATHS_TABLE })
@Family('d', { gc: { maxVersions: 1 } })
class PathRow {
  @KeyPart(0, { type: 'string', verbatim: true, charset: 'alnum' }) tenant!: string;
  @KeyPart(1, { type: 'string', verbatim: true }) path!: string;
  @Column({ family: 'd', type: 'string' }) v?: string;
}

/** Seed 003's `prefix-userId-site-timestamp`, user ids being UUIDs (they hold the separator `-`). */
@Entity({ table: ACTIVITY_TABLE, separator: '-' })
@Salt({ buckets: 4, on: ['userId', 'site'], hash: 'java-string-hashcode-signed', format: { width: 1, separator: '-' } })
@Family('a', { gc: { maxVersions: 1 } })
class Activity {
  @KeyPart(0, { type: 'string', verbatim: true, width: 36 }) userId!: string;
  @KeyPart(1, { type: 'string', verbatim: true, charset: 'alnum' }) site!: string;
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
  @Column({ family: 'a', type: 'string' }) action?: string;
}

const PATHS = ['a', 'ab', 'a#b', 'a#', '%zz', '', 'b%25#c', 'b'];
const USERS = ['9b2f4c1e-8d3a-4f6b-a1c2-3e4d5f6a7b8c', '00000000-0000-0000-0000-000000000001'];
const SITES = ['web', 'app'];
const BASE = Date.UTC(2024, 5, 24, 10, 0, 0);

let mapper: BigtableMapper;
let paths: Repository<PathRow>;
let activity: Repository<Activity>;

function all<T extends object>(repo: Repository<T>, query: ScanQuery<T>): Promise<T[]> {
  return lastValueFrom(repo.scan(query).pipe(toArray()));
}

beforeAll(async () => {
  mapper = openMapper([PathRow, Activity]);
  await mapper.sync();
  paths = mapper.getRepository(PathRow);
  activity = mapper.getRepository(Activity);
  // Written by "another program": raw keys through the client, not the mapper.
  await rawTable(mapper, PATHS_TABLE).insert([
    ...PATHS.map((p) => ({ key: `acme#${p}`, data: { d: { v: `acme:${p}` } } })),
    { key: 'acm#a', data: { d: { v: 'acm:a' } } },
  ]);
  await rawTable(mapper, ACTIVITY_TABLE).insert(
    USERS.flatMap((userId) =>
      SITES.flatMap((site) =>
        [0, 1, 2].map((i) => ({
          key: seed003SaltedKey(`${userId}-${site}-${BASE + i * 1000}`, 4),
          data: { a: { action: `${site}:${i}` } },
        })),
      ),
    ),
  );
});

afterAll(() => closeMapper(mapper, [PATHS_TABLE, ACTIVITY_TABLE]));

describe('verbatim key parts on a table written by hand', () => {
  it('scans every raw key back to its exact value, and re-encodes it byte for byte', async () => {
    const rows = await all(paths, { where: { tenant: 'acme' } });
    expect(rows.map((r) => r.path).sort()).toEqual([...PATHS].sort());
    for (const r of rows) {
      expect(r.v).toBe(`acme:${r.path}`);
      expect(paths.compileSave(r).rowKey.equals(Buffer.from(`acme#${r.path}`))).toBe(true);
    }
  });

  it("where on the whole last part is that one row: 'a' returns neither 'ab' nor 'a#b'", async () => {
    const rows = await all(paths, { where: { tenant: 'acme', path: 'a' } });
    expect(rows.map((r) => r.path)).toEqual(['a']);
    expect((await paths.findOne({ tenant: 'acme', path: 'a#' }))?.v).toBe('acme:a#');
    expect((await paths.findOne({ tenant: 'acme', path: '' }))?.v).toBe('acme:');
  });

  it('ranges on the last part follow the raw bytes', async () => {
    const rows = await all(paths, { where: { tenant: 'acme', path: range({ gte: 'a', lt: 'b' }) } });
    expect(rows.map((r) => r.path)).toEqual(['a', 'a#', 'a#b', 'ab']);
  });

  it("reads seed 003's Java-salted keys of ids holding '-', by key, by prefix and by range", async () => {
    const [userId] = USERS as [string];
    const found = await activity.findOne({ userId, site: 'web', at: new Date(BASE + 1000) });
    expect(found?.action).toBe('web:1');
    const rows = await all(activity, { where: { userId, site: 'app', at: range({ gte: new Date(BASE + 1000) }) } });
    expect(rows.map((r) => r.action)).toEqual(['app:1', 'app:2']);
    const byUser = await all(activity, { where: { userId } });
    expect(byUser.map((r) => r.action).sort()).toEqual(['app:0', 'app:1', 'app:2', 'web:0', 'web:1', 'web:2']);
    const stored = await rawKeys(mapper, ACTIVITY_TABLE);
    const written = await all(activity, {});
    expect(written.map((r) => activity.compileSave(r).rowKey.toString('utf8')).sort()).toEqual([...stored].sort());
  });
});
