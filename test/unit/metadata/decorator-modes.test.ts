import { describe, expect, it } from 'vitest';
import { Column } from '../../../src/decorators/index.js';
import { MetadataError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { Constructor } from '../../../src/model/declarations.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';
import { defineEntities, schemaShape, type DecoratorMode } from '../../support/transpile-entities.js';

const modes: DecoratorMode[] = ['legacy', 'legacy-metadata', 'standard'];

/** Compiles one of the exported classes of `source` in every mode; the schemas' shapes, by mode. */
function shapesByMode(source: string, entity: string): Record<DecoratorMode, unknown> {
  const shapes = {} as Record<DecoratorMode, unknown>;
  for (const mode of modes) {
    const exports = defineEntities(source, mode);
    shapes[mode] = schemaShape(compileEntity(exports[entity] as Constructor));
  }
  return shapes;
}

function expectSameInEveryMode(source: string, entity: string): unknown {
  const shapes = shapesByMode(source, entity);
  expect(shapes.standard).toEqual(shapes.legacy);
  expect(shapes['legacy-metadata']).toEqual(shapes.legacy);
  return shapes.legacy;
}

const everyDecorator = `
  @Entity({ table: 'sensors' })
  @Family('info')
  export class Sensor {
    @KeyPart(0, { type: 'string' }) id!: string;
    @Column({ family: 'info', type: 'string' }) location?: string;
  }

  class Address {
    street?: string;
    city?: string;
  }

  @Entity({ table: 'readings', separator: '|' })
  @KeyPart(0, { literal: 'reading' })
  @Salt({ buckets: 8, on: ['sensorId'] })
  @Family('m', { gc: { maxVersions: 5 } })
  @Family('logs', { gc: { maxAge: '30d', maxVersions: 2, mode: 'intersection' } })
  @Family('copy')
  export class Reading {
    @KeyPart(1, { type: 'string' }) sensorId!: string;
    @KeyPart(2, { type: 'timestamp', format: 'epoch-ms', descending: true }) ts!: Date;
    @Column({ family: 'm', type: 'float', versions: 5 }) temperature?: unknown;
    @Column({ family: 'logs', qualifier: 'sys', type: 'string' }) systemLog?: string;
    @Column({ family: 'm', type: 'bigint' }) count?: bigint;
    @Column({ family: 'm', type: Address, layout: 'flatten', fields: ['street', 'city'] }) place?: Address;
    @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
    @Column({ family: 'copy', type: 'string' })
    location?: string;
    @CellTimestamp() readAt?: Date;
  }
`;

describe('legacy and standard decorators record the same declarations', () => {
  it('compile every decorator to deep-equal schemas', () => {
    const shape = expectSameInEveryMode(everyDecorator, 'Reading') as Record<string, unknown>;
    expect(shape).toMatchObject({
      name: 'Reading',
      table: 'readings',
      families: [{ name: 'm' }, { name: 'logs' }, { name: 'copy' }],
      cellTimestamp: 'readAt',
    });
    expect(shape['columns']).toHaveLength(5);
    expect(shape['denormalized']).toHaveLength(1);
  });

  it('compile a class whose parent has field decorators but no class decorator', () => {
    const source = `
      export abstract class Keyed {
        @KeyPart(0, { type: 'string' }) tenant!: string;
        @Column({ family: 'd', type: 'string' }) createdBy?: string;
      }
      @Entity({ table: 'orders' })
      @Family('d')
      export class Order extends Keyed {
        @KeyPart(1, { type: 'uint', width: 8 }) orderNo!: number;
        @Column({ family: 'd', type: 'float' }) total?: number;
      }
    `;
    const shape = expectSameInEveryMode(source, 'Order') as { key: { properties: string[] }; columns: unknown[] };
    expect(shape.key.properties).toEqual(['tenant', 'orderNo']);
    expect(shape.columns).toMatchObject([{ property: 'createdBy' }, { property: 'total' }]);
  });

  it('compile a decorated parent and a decorated child without the child changing the parent', () => {
    const source = `
      @Entity({ table: 'base' })
      @Family('d', { gc: { maxVersions: 1 } })
      export class Base {
        @KeyPart(0, { type: 'string' }) id!: string;
        @Column({ family: 'd', type: 'string' }) name?: string;
      }
      export class Middle extends Base {}
      @Entity({ table: 'derived' })
      @Family('x')
      export class Derived extends Middle {
        @KeyPart(1, { type: 'uint', width: 4 }) version!: number;
        @Column({ family: 'd', qualifier: 'n', type: 'string' }) name?: string;
        @Column({ family: 'x', type: 'boolean' }) flag?: boolean;
      }
    `;
    const derived = expectSameInEveryMode(source, 'Derived') as Record<string, unknown>;
    const base = expectSameInEveryMode(source, 'Base') as Record<string, unknown>;
    expect(derived).toMatchObject({
      table: 'derived',
      key: { properties: ['id', 'version'] },
      families: [{ name: 'd' }, { name: 'x' }],
      columns: [{ property: 'name', qualifier: 'n' }, { property: 'flag' }],
    });
    expect(base).toMatchObject({ table: 'base', key: { properties: ['id'] }, columns: [{ qualifier: 'name' }] });
    expect(base['columns']).toHaveLength(1);
    expect(base['families']).toHaveLength(1);
  });

  it('keep the parent schema unchanged when a subclass is defined after it compiled', () => {
    for (const mode of modes) {
      const { Base } = defineEntities(
        `@Entity({ table: 'base' }) @Family('d')
         export class Base { @KeyPart(0, { type: 'string' }) id!: string; }`,
        mode,
      );
      const before = schemaShape(compileEntity(Base as Constructor));
      const { Child } = defineEntities(
        `import { Base } from './base';
         @Family('e')
         export class Child extends Base {
           @KeyPart(1, { type: 'string' }) sub!: string;
           @Column({ family: 'e', type: 'string' }) extra?: string;
         }`,
        mode,
        { './base': { Base } },
      );
      expect(compileEntity(Child as Constructor).key.properties).toEqual(['id', 'sub']);
      // A fresh copy of the parent's class, compiled only after the child added its declarations.
      const { Base: Fresh } = defineEntities(
        `@Entity({ table: 'base' }) @Family('d')
         export class Base { @KeyPart(0, { type: 'string' }) id!: string; }`,
        mode,
      );
      defineEntities(
        `import { Base } from './base';
         export class Child extends Base { @Column({ family: 'd', type: 'string' }) extra?: string; }`,
        mode,
        { './base': { Base: Fresh } },
      );
      expect(schemaShape(compileEntity(Fresh as Constructor))).toEqual(before);
    }
  });

  it('compile a standard subclass of a legacy parent, each class in its own mode', () => {
    const parent = `
      @Entity({ table: 'mixed' })
      @Family('d')
      export class Parent {
        @KeyPart(0, { type: 'string' }) id!: string;
        @Column({ family: 'd', type: 'string' }) a?: string;
      }
    `;
    const child = `
      import { Parent } from './parent';
      @Family('e')
      export class Child extends Parent {
        @KeyPart(1, { type: 'string' }) sub!: string;
        @Column({ family: 'e', type: 'string' }) b?: string;
      }
    `;
    const shapes = (['legacy', 'standard'] as const).map((childMode) => {
      const { Parent } = defineEntities(parent, childMode === 'legacy' ? 'standard' : 'legacy');
      const { Child } = defineEntities(child, childMode, { './parent': { Parent } });
      return schemaShape(compileEntity(Child as Constructor));
    });
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[0]).toMatchObject({ key: { properties: ['id', 'sub'] }, families: [{ name: 'd' }, { name: 'e' }] });
  });

  it('map a standard accessor field like a field', () => {
    const field = defineEntities(
      `@Entity({ table: 't' }) @Family('d')
       export class Note { @KeyPart(0, { type: 'string' }) id!: string; @Column({ family: 'd', type: 'string' }) text?: string; }`,
      'legacy',
    );
    const accessor = defineEntities(
      `@Entity({ table: 't' }) @Family('d')
       export class Note { @KeyPart(0, { type: 'string' }) accessor id!: string; @Column({ family: 'd', type: 'string' }) accessor text: string | undefined; }`,
      'standard',
    );
    expect(schemaShape(compileEntity(accessor['Note'] as Constructor))).toEqual(
      schemaShape(compileEntity(field['Note'] as Constructor)),
    );
  });

  it('polyfill Symbol.metadata, which the compiled standard classes carry', () => {
    const metadata = (Symbol as { metadata?: symbol }).metadata;
    expect(metadata).toBe(Symbol.for('Symbol.metadata'));
    const { Note } = defineEntities(
      `@Entity({ table: 't' }) export class Note { @KeyPart(0, { type: 'string' }) id!: string; }`,
      'standard',
    );
    expect(Object.hasOwn(Note as object, metadata as symbol)).toBe(true);
  });
});

describe('mistakes in standard mode name Entity.property', () => {
  it('reports a bad field decorator when the class decorator runs', () => {
    const err = expectMetadataError(
      () =>
        defineEntities(
          `@Entity({ table: 't' })
           export class Note { @KeyPart(0, { literal: 'x' } as any) id!: string; }`,
          'standard',
        ),
      'Note.id: a literal key part belongs on the class, not on a property',
      'Fix: move @KeyPart(0, { literal }) to the class',
    );
    expect(err.entity).toBe('Note');
  });

  it('reports a bad field decorator of a class without class decorator when it compiles', () => {
    const { Child } = defineEntities(
      `export class Base { @Column(null as any) text?: string; }
       @Entity({ table: 't' })
       export class Child extends Base { @KeyPart(0, { type: 'string' }) id!: string; }`,
      'standard',
    );
    expectMetadataError(() => compileEntity(Child as Constructor), 'Base.text: @Column needs an options object');
  });

  it.each([
    ['static', `@Column({ family: 'd', type: 'string' }) static text?: string;`, 'Note.text', 'a static field'],
    ['#private', `@Column({ family: 'd', type: 'string' }) #text?: string;`, 'Note.#text', 'a #private field'],
    ['method', `@KeyPart(1, { type: 'string' } as any) id2() { return ''; }`, 'Note.id2', 'a method'],
    ['getter', `@CellTimestamp() get at() { return new Date(); }`, 'Note.at', 'a getter'],
  ])('rejects a decorator on a %s member', (_kind, member, where, what) => {
    expectMetadataError(
      () =>
        defineEntities(
          `@Entity({ table: 't' }) export class Note { @KeyPart(0, { type: 'string' }) id!: string; ${member} }`,
          'standard',
        ),
      `${where}: `,
      `cannot go on ${what}. Fix: put it on an instance field`,
    );
  });

  it('rejects a symbol-keyed field', () => {
    expectMetadataError(
      () =>
        defineEntities(
          `const key = Symbol('text');
           @Entity({ table: 't' }) export class Note { @Column({ family: 'd', type: 'string' }) [key]?: string; }`,
          'standard',
        ),
      'Note.Symbol(text): symbol-keyed properties cannot be columns',
    );
  });

  it('rejects a class decorator on a field, naming the class', () => {
    expectMetadataError(
      () =>
        defineEntities(
          `@Entity({ table: 't' }) export class Note { @(Salt({ buckets: 2 }) as any) id!: string; }`,
          'standard',
        ),
      'Note.id: @Salt goes on the class, not on a property',
    );
  });

  it('rejects a static property in legacy mode too', () => {
    expectMetadataError(
      () =>
        defineEntities(
          `@Entity({ table: 't' }) export class Note { @Column({ family: 'd', type: 'string' }) static text?: string; }`,
          'legacy',
        ),
      'Note.text: @Column cannot go on a static property',
    );
  });

  it('says how to fix a compiler that passes no decorator metadata', () => {
    const context = { kind: 'field', name: 'text', static: false, private: false, metadata: undefined };
    expectMetadataError(
      () => Column({ family: 'd', type: 'string' })(undefined, context as unknown as ClassFieldDecoratorContext),
      'text: standard decorators were called without decorator metadata',
      '"experimentalDecorators": true',
    );
  });
});

describe('design:type', () => {
  const mismatched = `
    @Entity({ table: 't' })
    @Family('d')
    export class Note {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'd', type: 'string' }) count?: number;
    }
  `;

  it('is checked against the declared type only when the compiler emitted it', () => {
    expectMetadataError(
      () => compileEntity(defineEntities(mismatched, 'legacy-metadata')['Note'] as Constructor),
      "Note.count: is declared as type 'string' but its TypeScript type is Number",
    );
    for (const mode of ['legacy', 'standard'] as const) {
      expect(
        compileEntity(defineEntities(mismatched, mode)['Note'] as Constructor).columnsByProperty['count'],
      ).toMatchObject({ type: 'string' });
    }
  });

  it('is never needed: a column without a declared type fails in every mode, naming Entity.property', () => {
    for (const mode of modes) {
      const { Note } = defineEntities(
        `@Entity({ table: 't' }) @Family('d')
         export class Note { @KeyPart(0, { type: 'string' }) id!: string; @Column({ family: 'd' } as any) text?: string; }`,
        mode,
      );
      const err = expectMetadataError(() => compileEntity(Note as Constructor), 'Note.text: unknown column type');
      expect(err).toBeInstanceOf(MetadataError);
    }
  });
});
