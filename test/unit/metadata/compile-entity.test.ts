import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { MetadataError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';

@Entity({ table: 'readings' })
@Family('measurements', { gc: { maxVersions: 5 } })
@Family('logs', { gc: { maxAge: '30d' } })
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'measurements', type: 'float', versions: 5 }) temperature?: unknown;
  @Column({ family: 'logs', qualifier: 'sys', type: 'string' }) systemLog?: string;
  @CellTimestamp() readAt?: Date;
}

describe('compileEntity', () => {
  it('builds the key plan, families, columns and cell timestamp', () => {
    const schema = compileEntity(Reading);
    expect(schema.name).toBe('Reading');
    expect(schema.table).toBe('readings');
    expect(schema.key.separator).toBe('#');
    expect(schema.key.properties).toEqual(['sensorId', 'ts']);
    expect(schema.key.components.map((c) => (c.kind === 'property' ? c.codec.type : undefined))).toEqual([
      'string',
      'timestamp',
    ]);
    expect(schema.families).toEqual([
      { name: 'measurements', gc: { kind: 'maxVersions', count: 5 } },
      { name: 'logs', gc: { kind: 'maxAge', seconds: 30 * 86400 } },
    ]);
    expect(schema.columnsByProperty.temperature).toMatchObject({
      family: 'measurements',
      qualifier: 'temperature',
      type: 'float',
      versions: 5,
      versioned: true,
    });
    expect(schema.columnsByProperty.systemLog).toMatchObject({
      family: 'logs',
      qualifier: 'sys',
      type: 'string',
      versions: 1,
      versioned: false,
    });
    expect(schema.cellTimestamp).toBe('readAt');
    expect(schema.key.salt).toBeUndefined();
  });

  it('returns the same frozen schema on every call', () => {
    const schema = compileEntity(Reading);
    expect(compileEntity(Reading)).toBe(schema);
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.key.components)).toBe(true);
    expect(Object.isFrozen(schema.columns[0])).toBe(true);
    expect(Object.isFrozen(schema.families[0]?.gc)).toBe(true);
    expect(() => (schema.columns as unknown[]).push({})).toThrow(TypeError);
  });

  it('places literal components at their positions', () => {
    @Entity({ table: 'events', separator: '|' })
    @KeyPart(0, { literal: 'event' })
    class Event {
      @KeyPart(1, { type: 'string' }) source!: string;
      @KeyPart(2, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
    }
    const schema = compileEntity(Event);
    expect(schema.key.components.map((c) => (c.kind === 'literal' ? c.literal : c.property))).toEqual([
      'event',
      'source',
      'at',
    ]);
    expect(schema.key.separator).toBe('|');
    const at = schema.key.components[2];
    expect(at?.kind === 'property' ? at.codec : undefined).toMatchObject({ descending: true, format: 'epoch-ms' });
  });

  it('compiles @Salt with the key plan', () => {
    @Entity({ table: 'views' })
    @Salt({ buckets: 8, on: ['userId'] })
    class View {
      @KeyPart(0, { type: 'string' }) userId!: string;
      @KeyPart(1, { type: 'uint', width: 10 }) seq!: number;
    }
    const salt = compileEntity(View).key.salt;
    expect(salt).toMatchObject({ buckets: 8, on: ['userId'], prefixLength: 1, hash: 'md5', width: 2, separator: '#' });
  });
});

describe('compileEntity rejects', () => {
  it('a class without @Entity', () => {
    class Plain {
      @KeyPart(0, { type: 'string' }) id!: string;
    }
    expectMetadataError(() => compileEntity(Plain), 'Plain', '@Entity');
  });

  it('an entity without key parts', () => {
    @Entity({ table: 't' })
    @Family('f')
    class NoKey {
      @Column({ family: 'f', type: 'string' }) name?: string;
    }
    expectMetadataError(() => compileEntity(NoKey), 'NoKey', 'no key parts', '@KeyPart(0');
  });

  it('gaps in key positions', () => {
    @Entity({ table: 't' })
    class Gap {
      @KeyPart(0, { type: 'string' }) a!: string;
      @KeyPart(2, { type: 'string' }) b!: string;
    }
    expectMetadataError(() => compileEntity(Gap), 'Gap', '1 is missing', 'without gaps');
  });

  it('duplicate key positions', () => {
    @Entity({ table: 't' })
    class Dup {
      @KeyPart(0, { type: 'string' }) a!: string;
      @KeyPart(0, { type: 'string' }) b!: string;
    }
    expectMetadataError(() => compileEntity(Dup), 'Dup.b', 'position 0', 'a');
  });

  it('a column in an undeclared family', () => {
    @Entity({ table: 't' })
    @Family('m')
    class Undeclared {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'x', type: 'string' }) v?: string;
    }
    expectMetadataError(() => compileEntity(Undeclared), 'Undeclared.v', '"x"', "@Family('x')");
  });

  it('unknown column and key types', () => {
    @Entity({ table: 't' })
    @Family('f')
    class BadColumn {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'decimal' as never }) v?: string;
    }
    expectMetadataError(() => compileEntity(BadColumn), 'BadColumn.v');
    @Entity({ table: 't' })
    class BadKey {
      @KeyPart(0, { type: 'uuid' as never }) id!: string;
    }
    expectMetadataError(() => compileEntity(BadKey), 'BadKey.id');
  });

  it('a salt `on` naming a non-key property', () => {
    @Entity({ table: 't' })
    @Family('f')
    @Salt({ buckets: 4, on: ['name'] })
    class SaltOnColumn {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string' }) name?: string;
    }
    expectMetadataError(() => compileEntity(SaltOnColumn), 'SaltOnColumn', 'name');
  });

  it('a descending string component', () => {
    @Entity({ table: 't' })
    class DescString {
      @KeyPart(0, { type: 'string', descending: true }) id!: string;
    }
    expectMetadataError(() => compileEntity(DescString), 'DescString.id', 'descending');
  });

  it('a property that is both key part and column', () => {
    @Entity({ table: 't' })
    @Family('f')
    class Both {
      @KeyPart(0, { type: 'string' }) @Column({ family: 'f', type: 'string' }) id!: string;
    }
    expectMetadataError(() => compileEntity(Both), 'Both.id', 'both a key part and a column');
  });

  it('two properties on one column, bad versions, two cell timestamps', () => {
    @Entity({ table: 't' })
    @Family('f')
    class SameCell {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', qualifier: 'q', type: 'string' }) a?: string;
      @Column({ family: 'f', qualifier: 'q', type: 'string' }) b?: string;
    }
    expectMetadataError(() => compileEntity(SameCell), 'SameCell.b', 'f:q');
    @Entity({ table: 't' })
    @Family('f')
    class BadVersions {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string', versions: 0 }) a?: string;
    }
    expectMetadataError(() => compileEntity(BadVersions), 'BadVersions.a', 'versions');
    @Entity({ table: 't' })
    class TwoStamps {
      @KeyPart(0, { type: 'string' }) id!: string;
      @CellTimestamp() a?: Date;
      @CellTimestamp() b?: Date;
    }
    expectMetadataError(() => compileEntity(TwoStamps), 'TwoStamps', '@CellTimestamp');
  });

  it('literal text containing the separator', () => {
    @Entity({ table: 't' })
    @KeyPart(0, { literal: 'a#b' })
    class BadLiteral {
      @KeyPart(1, { type: 'string' }) id!: string;
    }
    expectMetadataError(() => compileEntity(BadLiteral), 'BadLiteral', 'a#b');
  });
});

describe('decorators reject local mistakes at once', () => {
  it('invalid table id, separator, family name, position and misplaced literals', () => {
    expect(() => Entity({ table: 'bad table' })(class A {})).toThrow(MetadataError);
    expect(() => Entity({ table: 't', separator: '%' })(class A {})).toThrow(/separator/);
    expect(() => Entity({ table: 't', separator: 'ab' })(class A {})).toThrow(/separator/);
    expect(() => Family('bad name!')(class A {})).toThrow(/family name/);
    expect(() => KeyPart(-1, { type: 'string' })({}, 'x')).toThrow(/position/);
    expect(() => (KeyPart(0, { type: 'string' }) as ClassDecorator)(class A {})).toThrow(/must be a literal/);
    expect(() => (KeyPart(0, { literal: 'x' }) as unknown as PropertyDecorator)({}, 'x')).toThrow(
      /belongs on the class/,
    );
  });
});

describe('inheritance', () => {
  @Entity({ table: 'base' })
  @Family('f', { gc: { maxVersions: 1 } })
  class Base {
    @KeyPart(0, { type: 'string' }) id!: string;
    @Column({ family: 'f', type: 'string' }) name?: string;
  }

  @Family('g')
  class Child extends Base {
    @KeyPart(1, { type: 'uint', width: 4 }) seq!: number;
    @Column({ family: 'g', type: 'int' }) count?: number;
    @Column({ family: 'f', qualifier: 'n', type: 'string' }) override name?: string;
  }

  it('a subclass adds to and overrides its parent without changing the parent', () => {
    const child = compileEntity(Child);
    expect(child.table).toBe('base');
    expect(child.key.properties).toEqual(['id', 'seq']);
    expect(child.families.map((f) => f.name)).toEqual(['f', 'g']);
    expect(child.columns.map((c) => `${c.property}:${c.qualifier}`)).toEqual(['name:n', 'count:count']);
    const base = compileEntity(Base);
    expect(base.key.properties).toEqual(['id']);
    expect(base.families.map((f) => f.name)).toEqual(['f']);
    expect(base.columns.map((c) => `${c.property}:${c.qualifier}`)).toEqual(['name:name']);
  });
});
