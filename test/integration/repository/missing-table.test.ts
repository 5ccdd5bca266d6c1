import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Column,
  Entity,
  ErrorCode,
  Family,
  KeyPart,
  PartialWriteError,
  TableNotFoundError,
  type BigtableMapper,
} from '../../../src/index.js';
import { closeMapper, openMapper } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';

// Never synced: every data call meets a table that does not exist.
const table = uniqueTableId('missing');

@Entity({ table })
@Family('m')
class Gauge {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'm', type: 'int' }) level?: number;
}

const gauge = (id: string): Gauge => Object.assign(new Gauge(), { id, level: 1 });
const mapper: BigtableMapper = openMapper([Gauge]);
const gauges = mapper.getRepository(Gauge);

afterAll(() => mapper.close());

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to reject, but it resolved');
    },
    (error: unknown) => error,
  );
}

function expectTableMissing(error: unknown): void {
  expect(error).toBeInstanceOf(TableNotFoundError);
  const missing = error as TableNotFoundError;
  expect(missing.code).toBe(ErrorCode.TableNotFound);
  expect(missing.table).toBe(table);
  expect(missing.details['table']).toBe(table);
  expect(missing.grpcCode).toBe(5);
  expect(missing.message).toContain(`table "${table}" does not exist; run mapper.sync()`);
}

describe('a table that does not exist', () => {
  it('save, replace, update and delete reject with TableNotFoundError naming the table', async () => {
    expectTableMissing(await failure(gauges.save(gauge('a'))));
    expectTableMissing(await failure(gauges.replace(gauge('a'))));
    expectTableMissing(await failure(gauges.update({ id: 'a' }, { level: 2 })));
    expectTableMissing(await failure(gauges.delete({ id: 'a' })));
  });

  it('findOne, findOneOrFail and findMany reject with TableNotFoundError', async () => {
    expectTableMissing(await failure(gauges.findOne({ id: 'a' })));
    expectTableMissing(await failure(gauges.findOneOrFail({ id: 'a' })));
    expectTableMissing(await failure(gauges.findMany([{ id: 'a' }, { id: 'b' }])));
  });

  it('scan, iterate and page reject with TableNotFoundError', async () => {
    expectTableMissing(await failure(lastValueFrom(gauges.scan({}).pipe(toArray()))));
    expectTableMissing(
      await failure(
        (async () => {
          for await (const _ of gauges.iterate({ where: { id: 'a' } })) void _;
        })(),
      ),
    );
    expectTableMissing(await failure(gauges.page({ limit: 10 })));
  });

  it('increment and saveIf reject with TableNotFoundError', async () => {
    expectTableMissing(await failure(gauges.increment({ id: 'a' }, 'level')));
    expectTableMissing(await failure(gauges.saveIf(gauge('a'), { rowExists: false })));
  });

  it('saveMany stops at the first batch: a PartialWriteError whose cause and message say the table is missing', async () => {
    const input = Array.from({ length: 50 }, (_, i) => gauge(`g${i}`));
    const error = await failure(gauges.saveMany(input, { batchSize: 10, concurrency: 1 }));
    expect(error).toBeInstanceOf(PartialWriteError);
    const partial = error as PartialWriteError<Gauge>;
    expectTableMissing(partial.cause);
    expect(partial.message).toContain(`table "${table}" does not exist; run mapper.sync()`);
    expect(partial.succeeded).toBe(0);
    expect(partial.failures.map((f) => f.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const f of partial.failures) expectTableMissing(f.cause);
    // The write did not send the other 40 rows to a table known to be missing.
    expect(partial.notAttempted.length + (partial.unreadFrom === undefined ? 0 : 50 - partial.unreadFrom)).toBe(40);
    expect(partial.wasPersisted(20)).toBe(false);
  });

  it('once synced, the same calls work', async () => {
    await mapper.sync();
    try {
      await gauges.save(gauge('a'));
      expect((await gauges.findOne({ id: 'a' }))?.level).toBe(1);
    } finally {
      await closeMapper(openMapper([Gauge]), [table]);
    }
  });
});
