import { describe, expect, it } from 'vitest';
import { MetadataError } from '../../../src/errors/index.js';
import type { EntitySchema, FamilySchema } from '../../../src/metadata/entity-schema.js';
import { desiredTables } from '../../../src/schema/desired-schema.js';
import type { GcRule } from '../../../src/model/gc-rule.js';

const v = (count: number): GcRule => ({ kind: 'maxVersions', count });
const a = (seconds: number): GcRule => ({ kind: 'maxAge', seconds });

function schema(name: string, table: string, families: FamilySchema[]): EntitySchema {
  return { name, table, families, key: { format: 'text' } } as unknown as EntitySchema;
}

describe('desiredTables', () => {
  it('returns one table per entity, tables and families sorted', () => {
    const tables = desiredTables([
      schema('Reading', 'readings', [
        { name: 'm', gc: v(5) },
        { name: 'logs', gc: a(60) },
      ]),
      schema('Alert', 'alerts', [{ name: 'a', gc: undefined }]),
    ]);
    expect(tables).toEqual([
      { table: 'alerts', families: [{ name: 'a', gc: undefined }], entities: ['Alert'] },
      {
        table: 'readings',
        families: [
          { name: 'logs', gc: a(60) },
          { name: 'm', gc: v(5) },
        ],
        entities: ['Reading'],
      },
    ]);
  });

  it('merges entities sharing a table; the same rule twice is fine', () => {
    const tables = desiredTables([
      schema('Reading', 'shared', [{ name: 'm', gc: { kind: 'union', rules: [v(1), a(60)] } }]),
      schema('Event', 'shared', [
        { name: 'm', gc: { kind: 'union', rules: [a(60), v(1)] } },
        { name: 'e', gc: undefined },
      ]),
      schema('Reading', 'shared', []),
    ]);
    expect(tables).toHaveLength(1);
    expect(tables[0]?.entities).toEqual(['Reading', 'Event']);
    expect(tables[0]?.families.map((f) => f.name)).toEqual(['e', 'm']);
  });

  it('rejects a family declared with different GC rules, naming both entities', () => {
    let caught: unknown;
    try {
      desiredTables([
        schema('Reading', 'shared', [{ name: 'm', gc: v(5) }]),
        schema('Event', 'shared', [{ name: 'm', gc: a(86_400) }]),
      ]);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MetadataError);
    const message = (caught as Error).message;
    expect(message).toContain('two entities share table "shared" with conflicting families');
    expect(message).toContain("@Family('m')");
    expect(message).toContain('"max 5 versions" on Reading');
    expect(message).toContain('"max age 1d" on Event');
    expect(message).toContain('Fix: declare the same gc');
  });

  it('treats a missing rule as different from a rule', () => {
    expect(() =>
      desiredTables([schema('A', 't', [{ name: 'm', gc: undefined }]), schema('B', 't', [{ name: 'm', gc: v(1) }])]),
    ).toThrow(/gc "none" on A but gc "max 1 version" on B/);
  });
});
