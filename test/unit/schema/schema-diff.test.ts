import { describe, expect, it } from 'vitest';
import type { ActualFamily } from '../../../src/model/driver.js';
import type { DesiredTable } from '../../../src/schema/desired-schema.js';
import type { GcRule } from '../../../src/model/gc-rule.js';
import { diffSchema } from '../../../src/schema/schema-diff.js';

const v = (count: number): GcRule => ({ kind: 'maxVersions', count });
const a = (seconds: number): GcRule => ({ kind: 'maxAge', seconds });

const readings: DesiredTable = {
  table: 'readings',
  families: [
    { name: 'logs', gc: a(30 * 86_400) },
    { name: 'm', gc: { kind: 'union', rules: [v(5), a(86_400)] } },
  ],
  entities: ['Reading'],
};

const actual = (entries: [string, ActualFamily[] | undefined][]): Map<string, ActualFamily[] | undefined> =>
  new Map(entries);

describe('diffSchema', () => {
  it('creates a missing table with its families', () => {
    const changes = diffSchema([readings], actual([['readings', undefined]]), {});
    expect(changes).toEqual([
      {
        kind: 'create-table',
        table: 'readings',
        families: readings.families,
        description:
          'create table "readings" with families logs (gc max age 30d), m (gc union(max 5 versions, max age 1d))',
      },
    ]);
    expect(diffSchema([readings], new Map(), {})).toEqual(changes);
  });

  it('is a no-op when the instance matches (member order ignored)', () => {
    const same = actual([
      [
        'readings',
        [
          { name: 'm', gc: { kind: 'union', rules: [a(86_400), v(5)] } },
          { name: 'logs', gc: a(2_592_000) },
        ],
      ],
    ]);
    expect(diffSchema([readings], same, {})).toEqual([]);
  });

  it('creates missing families and updates drifted rules, in family order', () => {
    const changes = diffSchema([readings], actual([['readings', [{ name: 'm', gc: v(5) }]]]), {});
    expect(changes).toEqual([
      {
        kind: 'create-family',
        table: 'readings',
        family: { name: 'logs', gc: a(2_592_000) },
        description: 'create family "logs" in table "readings" (gc max age 30d)',
      },
      {
        kind: 'update-gc',
        table: 'readings',
        family: 'm',
        from: v(5),
        to: { kind: 'union', rules: [v(5), a(86_400)] },
        description:
          'change gc of family "m" in table "readings" from max 5 versions to union(max 5 versions, max age 1d)',
      },
    ]);
  });

  it('plans removing a rule that is no longer declared', () => {
    const plain: DesiredTable = { table: 't', families: [{ name: 'f', gc: undefined }], entities: ['T'] };
    const [change] = diffSchema([plain], actual([['t', [{ name: 'f', gc: v(1) }]]]), {});
    expect(change).toMatchObject({ kind: 'update-gc', from: v(1), to: undefined });
    expect(change?.description).toBe('change gc of family "f" in table "t" from max 1 version to none');
  });

  it('leaves undeclared families alone unless allowDropFamilies', () => {
    const withExtra = actual([['readings', [...readings.families, { name: 'old', gc: undefined }]]]);
    expect(diffSchema([readings], withExtra, {})).toEqual([]);
    expect(diffSchema([readings], withExtra, { allowDropFamilies: false })).toEqual([]);
    expect(diffSchema([readings], withExtra, { allowDropFamilies: true })).toEqual([
      {
        kind: 'drop-family',
        table: 'readings',
        family: 'old',
        description: 'drop family "old" from table "readings" (not declared by any entity; deletes its data)',
      },
    ]);
  });

  it('never drops tables and orders changes by table then family', () => {
    const b: DesiredTable = {
      table: 'b',
      families: [
        { name: 'z', gc: undefined },
        { name: 'a', gc: v(1) },
      ],
      entities: ['B'],
    };
    const a0: DesiredTable = { table: 'a', families: [{ name: 'f', gc: undefined }], entities: ['A'] };
    const changes = diffSchema(
      [b, a0],
      actual([
        ['b', [{ name: 'y', gc: undefined }]],
        ['a', undefined],
        ['other', [{ name: 'x', gc: undefined }]],
      ]),
      { allowDropFamilies: true },
    );
    expect(
      changes.map(
        (c) => `${c.kind} ${c.table} ${'family' in c ? (typeof c.family === 'string' ? c.family : c.family.name) : ''}`,
      ),
    ).toEqual(['create-table a ', 'create-family b a', 'drop-family b y', 'create-family b z']);
  });

  it('creates a table with no families when none are declared', () => {
    const [change] = diffSchema([{ table: 'empty', families: [], entities: ['E'] }], new Map(), {});
    expect(change).toMatchObject({
      kind: 'create-table',
      families: [],
      description: 'create table "empty" with no families',
    });
  });
});
