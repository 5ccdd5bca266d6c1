import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import {
  BigtableMapper,
  type BulkWriter,
  Column,
  Entity,
  Family,
  KeyPart,
  ValidationError,
} from '../../../src/index.js';
import { BigtableModule, InjectBulkWriter, getBulkWriterToken, getMapperToken } from '../../../src/nest/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

/**
 * `BigtableModule.forFeature([Entity], { bulkWriters })`: a writer per entity,
 * injectable, and flushed and closed when the application shuts down, before
 * the mapper closes.
 */

const table = uniqueTableId('nest-writer');
const options = () => ({ emulatorHost: emulatorHost(), instance: testInstanceId });

@Entity({ table })
@Family('d')
class Event {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) body?: string;
}

afterAll(async () => {
  const driver = createGoogleCloudDriver(options());
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
});

describe('BigtableModule bulk writers', () => {
  it('injects one writer per entity and flushes it on shutdown: rows added but never flushed are written', async () => {
    @Injectable()
    class IngestService {
      constructor(@InjectBulkWriter(Event) readonly writer: BulkWriter<Event>) {}
      async ingest(id: string): Promise<void> {
        await this.writer.add(Object.assign(new Event(), { id, body: `event ${id}` }));
      }
    }

    @Module({
      // A long flush interval and a large batch: only the shutdown sends these rows.
      imports: [BigtableModule.forFeature([Event], { bulkWriters: { flushIntervalMs: 3_600_000, batchSize: 1_000 } })],
      providers: [IngestService],
    })
    class IngestModule {}

    const moduleRef = await Test.createTestingModule({
      imports: [BigtableModule.forRoot({ ...options(), sync: true }), IngestModule],
    }).compile();
    const app = await moduleRef.init();
    const service = app.get(IngestService);
    const writer = app.get<BulkWriter<Event>>(getBulkWriterToken(Event));
    expect(service.writer).toBe(writer);
    const mapper = app.get<BigtableMapper>(getMapperToken());
    for (let i = 0; i < 25; i++) await service.ingest(`e${String(i).padStart(2, '0')}`);
    expect(writer.totals).toMatchObject({ accepted: 25, persisted: 0, pending: 25 });
    await app.close();
    expect(writer.closed).toBe(true);
    expect(writer.totals).toEqual({ accepted: 25, persisted: 25, failed: 0, unknown: 0, pending: 0 });
    await expect(mapper.getRepository(Event).findOne({ id: 'e00' })).rejects.toThrow(/closed/); // then the mapper closed
    const check = new BigtableMapper({ ...options(), entities: [Event] });
    try {
      const ids: string[] = [];
      for await (const e of check.getRepository(Event).iterate({})) ids.push(e.id);
      expect(ids).toHaveLength(25);
    } finally {
      await check.close();
    }
  });

  it('rejects an unknown forFeature option, naming the closest one', () => {
    expect(() => BigtableModule.forFeature([Event], { bulkWriter: {} } as never)).toThrow(ValidationError);
  });
});
