import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { ColumnSchema } from '../../../src/metadata/entity-schema.js';
import { compileColumnValue, pushColumnCells } from '../../../src/mutation/compile-cells.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { Address, Profile } from '../metadata/embedded-entities.js';

@Entity({ table: 'samples' })
@Family('m', { gc: { maxVersions: 5 } })
class Sample {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'm', type: 'float', versions: 5 }) temp?: unknown;
  @Column({ family: 'm', type: 'string' }) label?: unknown;
}

const MICROS = 1_700_000_000_000_000;
const samples = compileEntity(Sample);
const profiles = compileEntity(Profile);
const column = (schema: typeof samples | typeof profiles, property: string): ColumnSchema =>
  schema.columnsByProperty[property] as ColumnSchema;

describe('pushColumnCells', () => {
  const cases: [string, typeof samples | typeof profiles, string, unknown][] = [
    ['undefined', samples, 'label', undefined],
    ['a value', samples, 'label', 'x'],
    ['null', samples, 'label', null],
    ['versions', samples, 'temp', [{ value: 1 }, { value: 2, timestamp: new Date(5) }]],
    ['no versions', samples, 'temp', []],
    ['a flattened object', profiles, 'home', Object.assign(new Address(), { street: 'Main 1', zip: 1 })],
    ['an empty flattened object', profiles, 'home', new Address()],
    ['null flattened', profiles, 'home', null],
  ];

  it.each(cases)(
    'appends what compileColumnValue returns, and says whether it wrote a cell: %s',
    (_, schema, property, value) => {
      const out: CellMutation[] = [{ kind: 'deleteFromRow' }];
      const wrote = pushColumnCells(schema, column(schema, property), value, MICROS, out);
      const cells = compileColumnValue(schema, column(schema, property), value, MICROS);
      expect(out).toEqual([{ kind: 'deleteFromRow' }, ...cells]);
      expect(wrote).toBe(cells.some((c) => c.kind === 'setCell'));
    },
  );
});
