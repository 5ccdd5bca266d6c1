import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, type Versioned } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { lintEntity } from '../../../src/tools.js';
import { ValidationError } from '../../../src/errors/errors.js';

describe('no-gc-rule', () => {
  it('warns on each family without a GC rule, naming the family', () => {
    @Entity({ table: 't' })
    @Family('kept', { gc: { maxAge: '7d' } })
    @Family('forever')
    class E {
      @KeyPart(0, { type: 'string', maxLength: 8 }) id!: string;
      @Column({ family: 'forever', type: 'string' }) note?: string;
    }
    const findings = lintEntity(E);
    expect(findings).toMatchObject([{ code: 'no-gc-rule', severity: 'warning', family: 'forever' }]);
    expect(findings[0]?.fix).toContain("@Family('forever', { gc: { maxVersions: 1 } })");
  });

  it('leaves aggregate families alone: they keep one cell per column and take no GC rule', () => {
    @Entity({ table: 't' })
    @Family('stats', { aggregate: 'sum' })
    @Family('forever')
    class E {
      @KeyPart(0, { type: 'string', maxLength: 8 }) id!: string;
      @Column({ family: 'stats', type: 'int' }) views?: number | bigint;
    }
    expect(lintEntity(E).map((f) => `${f.code} ${f.family}`)).toEqual(['no-gc-rule forever']);
  });
});

describe('versions-exceed-family', () => {
  const entity = (gc: object) => {
    @Entity({ table: 't' })
    @Family('m', { gc })
    class E {
      @KeyPart(0, { type: 'string', maxLength: 8 }) id!: string;
      @Column({ family: 'm', type: 'float', versions: 5 }) temperature?: Versioned<number>;
    }
    return E;
  };

  it('warns when a column asks for more versions than the family keeps (a union keeps its smallest bound)', () => {
    const [finding] = lintEntity(entity({ maxVersions: 3, maxAge: '1d' }));
    expect(finding).toMatchObject({ code: 'versions-exceed-family', severity: 'warning', property: 'temperature' });
    expect(finding?.message).toContain("asks for 5 versions, but family 'm' keeps at most 3");
  });

  it('passes when the family keeps enough, or an intersection leaves young versions unbounded', () => {
    expect(lintEntity(entity({ maxVersions: 5 }))).toEqual([]);
    expect(lintEntity(entity({ maxVersions: 3, maxAge: '1d', mode: 'intersection' }))).toEqual([]);
  });
});

describe('too-many-families', () => {
  it("warns above Bigtable's ~100 families by default, and above a chosen threshold", () => {
    const schema = compileEntity(
      (() => {
        @Entity({ table: 't' })
        @Family('a', { gc: { maxVersions: 1 } })
        @Family('b', { gc: { maxVersions: 1 } })
        @Family('c', { gc: { maxVersions: 1 } })
        class E {
          @KeyPart(0, { type: 'string', maxLength: 8 }) id!: string;
        }
        return E;
      })(),
    );
    expect(lintEntity(schema)).toEqual([]);
    expect(lintEntity(schema, { maxFamilies: 2 })).toMatchObject([{ code: 'too-many-families', severity: 'warning' }]);
    const many = {
      ...schema,
      families: Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, gc: schema.families[0]?.gc })),
    };
    const [finding] = lintEntity(many as typeof schema);
    expect(finding?.message).toContain("101 column families, more than 100, Bigtable's documented guidance");
  });

  it('rejects a maxFamilies that is not a sensible integer', () => {
    @Entity({ table: 't' })
    @Family('a', { gc: { maxVersions: 1 } })
    class E {
      @KeyPart(0, { type: 'string', maxLength: 8 }) id!: string;
    }
    expect(() => lintEntity(E, { maxFamilies: 0 })).toThrow(ValidationError);
    expect(() => lintEntity(E, { maxFamilies: 1.5 })).toThrow(ValidationError);
  });
});
