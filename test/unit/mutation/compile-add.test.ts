import { describe, expect, it } from 'vitest';
import { Column, Denormalized, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileAdd } from '../../../src/mutation/compile-add.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { compileUpdate } from '../../../src/mutation/compile-update.js';
import { toRawMutation } from '../../../src/driver/client-mutation.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';

const NOW = 1_700_000_000_000;

@Entity({ table: 'stats' })
@Family('s', { aggregate: 'sum' })
@Family('lo', { aggregate: 'min' })
@Family('u', { aggregate: 'hll' })
@Family('p')
class PageStats {
  @KeyPart(0, { type: 'string' }) page!: string;
  @Column({ family: 's', type: 'int' }) views?: number | bigint | null;
  @Column({ family: 's', qualifier: 'b', type: 'bigint' }) bytes?: bigint;
  @Column({ family: 'lo', type: 'int' }) fastest?: number | bigint;
  @Column({ family: 'u', type: 'bytes' }) visitors?: Buffer;
  @Column({ family: 'p', type: 'string' }) title?: string | null;
}

const schema = compileEntity(PageStats);
const KEY = { page: '/home' };

function caught(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

describe('aggregate families in the compiled schema', () => {
  it('carry their aggregate on the family and on each of its columns; plain ones carry none', () => {
    expect(schema.families).toEqual([
      { name: 's', gc: undefined, aggregate: 'sum' },
      { name: 'lo', gc: undefined, aggregate: 'min' },
      { name: 'u', gc: undefined, aggregate: 'hll' },
      { name: 'p', gc: undefined },
    ]);
    expect(schema.columns.map((c) => [c.property, c.aggregate])).toEqual([
      ['views', 'sum'],
      ['bytes', 'sum'],
      ['fastest', 'min'],
      ['visitors', 'hll'],
      ['title', undefined],
    ]);
  });

  it('refuses an unknown aggregate and a gc rule on an aggregate family, naming the family and the fix', () => {
    @Entity({ table: 't' })
    @Family('s', { aggregate: 'avg' as never })
    class Avg {
      @KeyPart(0, { type: 'string' }) id!: string;
    }
    expectMetadataError(() => compileEntity(Avg), 'Avg: @Family(\'s\') aggregate "avg"', "use aggregate: 'sum'");

    @Entity({ table: 't' })
    @Family('s', { aggregate: 'sum', gc: { maxAge: '30d' } })
    class Aged {
      @KeyPart(0, { type: 'string' }) id!: string;
    }
    expectMetadataError(
      () => compileEntity(Aged),
      "@Family('s') is an aggregate family ('sum') with a gc rule",
      'Fix: remove gc',
    );
  });

  it('refuses a non-numeric column on a sum family, a number column on an hll family, versions and a copy there', () => {
    @Entity({ table: 't' })
    @Family('s', { aggregate: 'sum' })
    class Text {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 's', type: 'string' }) name?: string;
    }
    expectMetadataError(
      () => compileEntity(Text),
      'Text.name: is a "string" column on the \'sum\' aggregate family',
      "type: 'int'",
    );

    @Entity({ table: 't' })
    @Family('u', { aggregate: 'hll' })
    class Count {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'u', type: 'int' }) n?: number;
    }
    expectMetadataError(
      () => compileEntity(Count),
      'Count.n: is a "int" column on the \'hll\' aggregate family',
      "type: 'bytes'",
    );

    @Entity({ table: 't' })
    @Family('s', { aggregate: 'max' })
    class Versions {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 's', type: 'int', versions: 3 }) n?: unknown;
    }
    expectMetadataError(() => compileEntity(Versions), 'Versions.n: is versioned (versions: 3)', 'remove versions');

    @Entity({ table: 'src' })
    @Family('s')
    class Source {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 's', type: 'int' }) n?: number;
    }
    @Entity({ table: 't' })
    @Family('s', { aggregate: 'sum' })
    class Copy {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Denormalized({ from: () => Source, key: { id: 'id' }, field: 'n' })
      @Column({ family: 's', type: 'int' })
      n?: number;
    }
    expectMetadataError(
      () => compileEntity(Copy),
      'Copy.n: is a @Denormalized copy on the aggregate family',
      'plain family',
    );
  });
});

describe('compileAdd', () => {
  it('one addToCell per input at timestamp 0 with the exact int64, never idempotent, frozen', () => {
    const m = compileAdd(schema, KEY, { views: 1, bytes: 2n ** 63n - 1n, fastest: -7 }, { now: NOW });
    expect(m.idempotent).toBe(false);
    expect(m.rowKeyText).toBe('/home');
    expect(m.mutations).toEqual([
      { kind: 'addToCell', family: 's', qualifier: 'views', timestampMicros: 0, input: 1n },
      { kind: 'addToCell', family: 's', qualifier: 'b', timestampMicros: 0, input: 2n ** 63n - 1n },
      { kind: 'addToCell', family: 'lo', qualifier: 'fastest', timestampMicros: 0, input: -7n },
    ]);
    expect(Object.isFrozen(m) && Object.isFrozen(m.mutations) && m.mutations.every((c) => Object.isFrozen(c))).toBe(
      true,
    );
  });

  it('an hll column takes an int64 (addToCell) or a sketch (mergeToCell, a copy of the bytes)', () => {
    const sketch = new Uint8Array([1, 2, 3]);
    const m = compileAdd(schema, KEY, { visitors: 42 }, { now: NOW });
    expect(m.mutations).toEqual([
      { kind: 'addToCell', family: 'u', qualifier: 'visitors', timestampMicros: 0, input: 42n },
    ]);
    const merged = compileAdd(schema, KEY, { visitors: sketch }, { now: NOW }).mutations[0];
    expect(merged).toMatchObject({ kind: 'mergeToCell', family: 'u', qualifier: 'visitors', timestampMicros: 0 });
    sketch[0] = 9;
    expect((merged as { state: Buffer }).state).toEqual(Buffer.from([1, 2, 3]));
  });

  it('writes the changes first, as update() compiles them, in the same row mutation', () => {
    const m = compileAdd(schema, KEY, { views: 2 }, { now: NOW, changes: { title: 'Home' } });
    expect(m.mutations.map((c) => c.kind)).toEqual(['setCell', 'addToCell']);
    expect(m.mutations[0]).toMatchObject({ family: 'p', qualifier: 'title', timestampMicros: NOW * 1000 });
    expect(m.idempotent).toBe(false);
    const reset = compileAdd(schema, KEY, { views: 1 }, { now: NOW, changes: { title: null, views: null } });
    expect(reset.mutations.map((c) => `${c.kind} ${'qualifier' in c ? c.qualifier : ''}`)).toEqual([
      'deleteFromColumn title',
      'deleteFromColumn views',
      'addToCell views',
    ]);
  });

  it('refuses plain columns, unknown properties, fractions, out-of-range bigints, an empty sketch and no input', () => {
    expect(caught(() => compileAdd(schema, KEY, { title: 1 }))).toBeInstanceOf(ValidationError);
    expect(caught(() => compileAdd(schema, KEY, { title: 1 })).message).toMatch(
      /PageStats\.title: .*'p' is a plain family.*Fix: add to one of views, bytes, fastest, visitors/,
    );
    expect(caught(() => compileAdd(schema, KEY, { nope: 1 })).message).toMatch(/PageStats\.nope: .*not a column/);
    expect(caught(() => compileAdd(schema, KEY, { views: 1.5 })).message).toMatch(
      /PageStats\.views: 1\.5 is not an int64 input for the 'sum' aggregate/,
    );
    expect(caught(() => compileAdd(schema, KEY, { bytes: 2n ** 63n })).message).toMatch(
      /PageStats\.bytes: .* not an int64 input/,
    );
    expect(caught(() => compileAdd(schema, KEY, { views: Buffer.from([1]) })).message).toMatch(/not an int64 input/);
    expect(caught(() => compileAdd(schema, KEY, { visitors: new Uint8Array() })).message).toMatch(/an empty sketch/);
    expect(caught(() => compileAdd(schema, KEY, { views: undefined })).message).toMatch(/add has no input/);
  });
});

describe('save and update around aggregate columns', () => {
  it('compileSave leaves aggregate columns out (a total read back is not added again)', () => {
    const entity = Object.assign(new PageStats(), { page: '/home', views: 10, visitors: Buffer.from('x'), title: 't' });
    const m = compileSave(schema, entity, { now: NOW });
    expect(m.mutations.map((c) => c.kind === 'setCell' && c.qualifier)).toEqual(['title']);
    expect(m.idempotent).toBe(true);
  });

  it('compileUpdate resets an aggregate column with null and refuses a value, pointing to add()', () => {
    const m = compileUpdate(schema, KEY, { views: null }, { now: NOW });
    expect(m.mutations).toEqual([{ kind: 'deleteFromColumn', family: 's', qualifier: 'views' }]);
    expect(caught(() => compileUpdate(schema, KEY, { views: 3 }, { now: NOW })).message).toMatch(
      /PageStats\.views: is a column of the 'sum' aggregate family 's', which update\(\) cannot set\. Fix: add to it with repo\.add/,
    );
  });
});

describe('the request the driver builds', () => {
  it('AddToCell carries the qualifier and timestamp as raw values and the int64 as a decimal intValue; MergeToCell the sketch as rawValue', () => {
    const m = compileAdd(
      schema,
      KEY,
      { views: -(2n ** 63n), visitors: Buffer.from('abc') },
      { now: NOW, changes: { title: 'x' } },
    );
    expect(m.rowKey).toEqual(Buffer.from('/home'));
    expect(m.mutations.slice(1).map(toRawMutation)).toEqual([
      {
        addToCell: {
          familyName: 's',
          columnQualifier: { rawValue: Buffer.from('views') },
          timestamp: { rawTimestampMicros: 0 },
          input: { intValue: '-9223372036854775808' },
        },
      },
      {
        mergeToCell: {
          familyName: 'u',
          columnQualifier: { rawValue: Buffer.from('visitors') },
          timestamp: { rawTimestampMicros: 0 },
          input: { rawValue: Buffer.from('abc') },
        },
      },
    ]);
    expect(toRawMutation(m.mutations[0] as CellMutation)).toMatchObject({
      setCell: { familyName: 'p', timestampMicros: NOW * 1000 },
    });
  });
});
