import { afterEach, describe, expect, it, vi } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { PartialWriteError } from '../../../src/errors/index.js';
import type { OperationTelemetry } from '../../../src/model/telemetry.js';
import { BigtableMapper } from '../../../src/repository/mapper.js';
import { logPartialWrites } from '../../../src/telemetry/log-messages.js';
import { GrpcCode, InMemoryBigtable } from '../../../src/testing/index.js';
import { SensorFirstReading, TimeFirstReading } from '../lint/seed-001-entities.js';

afterEach(() => vi.restoreAllMocks());

@Entity({ table: 'orders' })
@Family('d')
class Order {
  @KeyPart(0, { type: 'string', maxLength: 32 }) orderId!: string;
  @Column({ family: 'd', type: 'string' }) note?: string;
}

const order = (orderId: string, note = `note of ${orderId}`): Order => Object.assign(new Order(), { orderId, note });

/** A logger that keeps every line, as `level message`. */
function recordingLogger(): { lines: string[]; debug(m: string): void; warn(m: string): void } {
  const lines: string[] = [];
  return { lines, debug: (m) => lines.push(`debug ${m}`), warn: (m) => lines.push(`warn ${m}`) };
}

describe('partial writes in the logger', () => {
  it('a saveMany with failed rows logs one warn: entity, real table, call and counts by gRPC code, no key or value', async () => {
    const bigtable = new InMemoryBigtable();
    const logger = recordingLogger();
    const mapper = new BigtableMapper({ driver: bigtable, entities: [Order], tablePrefix: 'staging_', logger });
    await mapper.sync();
    const orders = mapper.getRepository(Order);
    bigtable.reject(orders.compileSave(order('o-secret-2')).rowKey, GrpcCode.PermissionDenied);
    bigtable.reject(orders.compileSave(order('o-secret-3')).rowKey, GrpcCode.PermissionDenied);
    const written = [order('o-1'), order('o-secret-2'), order('o-secret-3'), order('o-4')];
    await expect(orders.saveMany(written)).rejects.toBeInstanceOf(PartialWriteError);
    expect(logger.lines).toEqual([
      'warn bigtable-mapper: partial write of Order to "staging_orders" in Order.saveMany: 2 of 4 writes failed (2 PERMISSION_DENIED), 2 persisted',
    ]);
    await mapper.close();
  });

  it('counts entities refused before sending as invalid input, and says how a stopped write ended', async () => {
    const logger = recordingLogger();
    const mapper = new BigtableMapper({ driver: new InMemoryBigtable(), entities: [Order], logger });
    await mapper.sync();
    const orders = mapper.getRepository(Order);
    async function* input(): AsyncGenerator<Order> {
      yield order('o-1');
      yield Object.assign(new Order(), { note: 'no key' });
      throw new TypeError('the source broke');
    }
    const error = await orders.saveMany(input(), { batchSize: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialWriteError);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toBe(
      'warn bigtable-mapper: partial write of Order to "orders" in Order.saveMany: 1 of 2 writes failed (1 invalid input), 0 persisted; stopped by TypeError: 1 not attempted, input unread from #2',
    );
    expect(logger.lines[0]).not.toContain('source broke');
    await mapper.close();
  });

  it('a write that succeeds, or a save that fails as a whole, logs nothing', async () => {
    const bigtable = new InMemoryBigtable();
    const logger = recordingLogger();
    const mapper = new BigtableMapper({ driver: bigtable, entities: [Order], logger });
    await mapper.sync();
    const orders = mapper.getRepository(Order);
    await orders.saveMany([order('a'), order('b')]);
    bigtable.failNext('mutateRow', GrpcCode.PermissionDenied);
    await expect(orders.save(order('c'))).rejects.toMatchObject({ grpcCode: GrpcCode.PermissionDenied });
    expect(logger.lines).toEqual([]);
    await mapper.close();
  });

  it('an error that ends an inner call and the call around it is logged once', () => {
    const ended: unknown[] = [];
    const inner: OperationTelemetry = {
      start: (name) => ({ call: { entity: undefined, operation: name }, end: (error) => ended.push(error) }),
    };
    const logger = recordingLogger();
    const telemetry = logPartialWrites(inner, logger, (entity) => (entity === 'Reading' ? 'readings' : undefined));
    const error = new PartialWriteError('Reading', [], 3, {
      cause: undefined,
      notAttempted: [3, 4],
      unreadFrom: undefined,
    });
    const outer = telemetry.start('Sensor.propagate');
    const nested = telemetry.start('Reading.propagate');
    nested.end(error);
    outer.end(error);
    expect(ended).toEqual([error, error]);
    expect(logger.lines).toEqual([
      'warn bigtable-mapper: partial write of Reading to "readings" in Reading.propagate: 0 of 5 writes failed, 3 persisted; stopped: 2 not attempted',
    ]);
  });
});

describe('lint findings in the logger', () => {
  it("with a logger, lint 'warn' writes one warn per entity with its table and counts, and no process warning", () => {
    const processWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const logger = recordingLogger();
    new BigtableMapper({
      driver: new InMemoryBigtable(),
      entities: [TimeFirstReading, SensorFirstReading],
      lint: 'warn',
      tablePrefix: 'dev_',
      logger,
    });
    expect(processWarning).not.toHaveBeenCalled();
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(
      /^warn bigtable-mapper: lint: TimeFirstReading \(table "dev_readings-by-time"\) has 1 error: \[error leading-timestamp\] TimeFirstReading\.ts: the row key starts with a timestamp .*\. Fix: put an identifier/,
    );
  });

  it("lint 'off' logs nothing, whatever the design", () => {
    const logger = recordingLogger();
    new BigtableMapper({ driver: new InMemoryBigtable(), entities: [TimeFirstReading], logger });
    expect(logger.lines).toEqual([]);
  });
});
