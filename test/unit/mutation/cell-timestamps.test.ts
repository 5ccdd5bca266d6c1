import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import type { Versioned } from '../../../src/metadata/compile-columns.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';

@Entity({ table: 'stamped' })
@Family('f')
class Stamped {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'f', type: 'string' }) note?: string;
  @Column({ family: 'f', type: 'string', versions: 3 }) history?: Versioned<string>;
  @CellTimestamp() at?: Date;
}

const schema = compileEntity(Stamped);
const save = (fields: Partial<Stamped>) => compileSave(schema, Object.assign(new Stamped(), { id: 'x', ...fields }));
const MAX_DATE_MS = 8_640_000_000_000_000;

describe('cell timestamps are whole milliseconds inside the int64 microsecond range', () => {
  it.each([
    ['the last valid Date', new Date(MAX_DATE_MS)],
    ['year 3000', new Date('3000-01-01T00:00:00.000Z')],
    ['year 2300', new Date('2300-01-01T00:00:00.123Z')],
  ])('a far-future @CellTimestamp (%s) is a ValidationError naming the property, before sending', (_label, at) => {
    expect(() => save({ note: 'n', at })).toThrow(ValidationError);
    expect(() => save({ note: 'n', at })).toThrow(/Stamped\.at/);
  });

  it('a far-future version timestamp is a ValidationError naming the version', () => {
    expect(() => save({ history: [{ value: 'v', timestamp: new Date(MAX_DATE_MS) }] })).toThrow(
      /Stamped\.history\[0\]\.timestamp/,
    );
  });

  it('every timestamp written is a whole number of milliseconds, exactly', () => {
    for (const at of [new Date(0), new Date('2024-05-01T12:00:00.789Z'), new Date('2250-12-31T23:59:59.999Z')]) {
      const cells = save({ note: 'n', at }).mutations.filter((m) => m.kind === 'setCell');
      for (const cell of cells) {
        expect(Number.isSafeInteger(cell.timestampMicros)).toBe(true);
        expect(cell.timestampMicros % 1000).toBe(0);
        expect(cell.timestampMicros / 1000).toBe(at.getTime());
      }
    }
  });
});
