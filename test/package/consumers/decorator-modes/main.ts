// One app, compiled by the decorator-modes test with each TypeScript version and decorator setting (it writes the
// tsconfig.json): entities using every decorator and inheritance, saved and read back, and the compiled schema printed.
import {
  BigtableMapper,
  CellTimestamp,
  Column,
  Denormalized,
  Entity,
  Family,
  KeyPart,
  KeyParts,
  Salt,
} from 'bigtable-mapper';
import { uniqueTableId } from 'bigtable-mapper/testing';

@Entity({ table: uniqueTableId('modes-sensors') })
@Family('info')
class Sensor {
  declare [KeyParts]?: 'id';
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'info', type: 'string' }) location?: string;
}

// A parent without a class decorator: its key part and column belong to every subclass.
abstract class Tenanted {
  @KeyPart(1, { type: 'string' }) tenant!: string;
  @Column({ family: 'm', qualifier: 'by', type: 'string' }) createdBy?: string;
}

@Entity({ table: uniqueTableId('modes-readings') })
@KeyPart(0, { literal: 'reading' })
@Salt({ buckets: 4 })
@Family('m', { gc: { maxVersions: 3 } })
@Family('copy')
class Reading extends Tenanted {
  declare [KeyParts]?: 'tenant' | 'sensorId' | 'at';
  @KeyPart(2, { type: 'string' }) sensorId!: string;
  @KeyPart(3, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
  @Column({ family: 'm', type: 'float' }) temperature?: number;
  @Column({ family: 'm', type: 'bigint' }) count?: bigint;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
  @Column({ family: 'copy', type: 'string' })
  location?: string;
  @CellTimestamp() readAt?: Date;
}

const mapper = new BigtableMapper({
  emulatorHost: process.env['BIGTABLE_EMULATOR_HOST'] ?? '',
  instance: 'decorator-modes',
  entities: [Sensor, Reading],
});

// The compiled schema, as the mapper holds it.
const schema = mapper.register(Reading);
const summary = {
  name: schema.name,
  key: schema.key.components.map((c) =>
    c.kind === 'literal' ? `${c.position}:'${c.literal}'` : `${c.position}:${c.property}`,
  ),
  salt: schema.key.salt?.buckets,
  families: schema.families.map((f) => `${f.name} ${JSON.stringify(f.gc ?? null)}`),
  columns: schema.columns.map((c) => `${c.property} ${c.family}:${c.qualifier} ${c.type}`),
  cellTimestamp: schema.cellTimestamp,
  denormalized: schema.denormalized.map((d) => `${d.property} <- ${d.sourceName}.${d.field}`),
};

try {
  await mapper.sync();
  await mapper.getRepository(Sensor).save(Object.assign(new Sensor(), { id: 's1', location: 'roof' }));
  const readings = mapper.getRepository(Reading);
  const at = new Date('2024-05-01T12:00:00.000Z');
  await readings.save(
    Object.assign(new Reading(), {
      tenant: 'acme',
      sensorId: 's1',
      at,
      createdBy: 'ops',
      temperature: 21.5,
      count: 7n,
      readAt: at,
    }),
  );
  const found = await readings.findOne({ tenant: 'acme', sensorId: 's1', at });
  const read = found && {
    instance: found instanceof Reading,
    createdBy: found.createdBy,
    temperature: found.temperature,
    count: String(found.count),
    location: found.location,
    readAt: found.readAt?.toISOString(),
  };
  console.log(JSON.stringify({ schema: summary, read }));
} finally {
  await mapper.close();
}
