/**
 * `npm run demo`: a short end-to-end tour on an auto-started Bigtable emulator
 * (or the one in BIGTABLE_EMULATOR_HOST): declare an entity, sync its table,
 * write readings, read one back and scan a sensor's hour.
 */
import 'reflect-metadata';
import { BigtableMapper, Column, Entity, Family, KeyPart, type Versioned } from '../src/index.js';
import { useEmulator } from '../src/testing/index.js';

@Entity({ table: 'demo-readings' })
@Family('measurements', { gc: { maxVersions: 5 } })
@Family('logs', { gc: { maxAge: '30d' } })
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'measurements', type: 'float' }) temperature?: number;
  @Column({ family: 'measurements', type: 'float', versions: 5 }) humidity?: Versioned<number>;
  @Column({ family: 'logs', type: 'string' }) note?: string;
}

async function main(): Promise<void> {
  const emulator = await useEmulator();
  const mapper = new BigtableMapper({ emulatorHost: emulator.host, instance: 'demo', entities: [Reading] });
  try {
    const { changes } = await mapper.sync();
    console.log(`schema sync: ${changes.length} change(s)`);
    for (const change of changes) console.log(`  - ${change.description}`);

    const readings = mapper.getRepository(Reading);
    const start = Date.UTC(2023, 4, 1, 12, 0, 0);
    const rows = ['sensor123', 'sensor124', 'sensor12'].flatMap((sensorId) =>
      Array.from({ length: 24 }, (_, i) =>
        Object.assign(new Reading(), { sensorId, ts: new Date(start + i * 5 * 60_000), temperature: 20 + i / 10, note: i === 0 ? 'boot' : undefined }),
      ),
    );
    const { written } = await readings.saveMany(rows);
    console.log(`saveMany: ${written} readings written`);

    const key = { sensorId: 'sensor123', ts: new Date(start) };
    console.log(`row key of ${JSON.stringify(key)}: ${readings.compileSave(Object.assign(new Reading(), key, { temperature: 1 })).rowKeyText}`);
    const one = await readings.findOneOrFail(key);
    console.log(`findOne: temperature=${one.temperature} note=${one.note}`);

    const hour = { gte: new Date(start), lt: new Date(start + 3600_000) };
    const inHour: Reading[] = [];
    for await (const r of readings.iterate({ where: { sensorId: 'sensor123', ts: hour } })) inHour.push(r);
    console.log(`scan sensor123, first hour: ${inHour.length} readings, ${inHour[0]?.ts.toISOString()} .. ${inHour.at(-1)?.ts.toISOString()}`);
    const isolated = (await readings.page({ where: { sensorId: 'sensor12' }, limit: 100 })).items.every((r) => r.sensorId === 'sensor12');
    console.log(`prefix isolation: scan of "sensor12" returned only sensor12 rows: ${isolated}`);
  } finally {
    await mapper.close();
    await emulator.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
