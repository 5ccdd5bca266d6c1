import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Denormalized, Entity, Family, KeyPart } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { RowData } from '../../../src/model/driver.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { hydrate } from '../../../src/read/hydrate.js';
import { resolveRead } from '../../../src/read/read-options.js';

@Entity({ table: 'stamp-sensors' })
@Family('info')
class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'info', type: 'string' }) location?: string;
}

@Entity({ table: 'stamp-readings' })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 6 }) seq!: number;
  @Column({ family: 'm', type: 'float' }) temperature?: number;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
  @Column({ family: 'm', type: 'string' })
  location?: string;
  @CellTimestamp() takenAt?: Date;
}

const NOW = Date.UTC(2026, 0, 2);
const TAKEN = new Date(Date.UTC(2025, 5, 1));

describe('@Denormalized copies of an entity with @CellTimestamp', () => {
  it('are written whole (every version deleted, then set) at the save time, not at the entity time, like the copies propagate() writes', () => {
    const schema = compileEntity(Reading);
    const mutation = compileSave(
      schema,
      Object.assign(new Reading(), { sensorId: 's1', seq: 1, temperature: 20, location: 'hall', takenAt: TAKEN }),
      { now: NOW },
    );
    const stamps = Object.fromEntries(
      mutation.mutations.map((m) => (m.kind === 'setCell' ? [m.qualifier, m.timestampMicros] : [m.kind, 0])),
    );
    expect(stamps).toEqual({ temperature: TAKEN.getTime() * 1000, location: NOW * 1000, deleteFromColumn: 0 });
    expect(mutation.mutations.map((m) => m.kind)).toEqual(['setCell', 'deleteFromColumn', 'setCell']);
  });

  it('do not count toward the @CellTimestamp a read reports', () => {
    const schema = compileEntity(Reading);
    const row: RowData = {
      key: Buffer.from('s1#000001'),
      cells: {
        m: {
          temperature: [{ value: Buffer.alloc(8), timestampMicros: TAKEN.getTime() * 1000 }],
          location: [{ value: Buffer.from('hall'), timestampMicros: NOW * 1000 }],
        },
      },
    };
    const reading = hydrate(schema, row, resolveRead(schema), NOW * 1000);
    expect(reading.location).toBe('hall');
    expect(reading.takenAt).toEqual(TAKEN);
  });
});
