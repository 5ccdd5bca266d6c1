import { describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, ValidationError } from '../../../src/index.js';
import { FakeDriver, GrpcCode } from '../../support/fake-driver.js';

@Entity({ table: 'health-a' })
@Family('f')
class A {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'f', type: 'string' }) v?: string;
}

@Entity({ table: 'health-b' })
@Family('f')
class B {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'f', type: 'string' }) v?: string;
}

describe('mapper.health()', () => {
  it('is healthy when every registered table answers a one-row read', async () => {
    const driver = new FakeDriver({ implicitTables: false });
    const mapper = new BigtableMapper({ driver, entities: [A, B] });
    await mapper.sync();
    const report = await mapper.health();
    expect(report.healthy).toBe(true);
    expect(report.tables).toEqual([
      { table: 'health-a', healthy: true },
      { table: 'health-b', healthy: true },
    ]);
    expect(driver.callsOf('readRows').map((c) => c.request)).toEqual([
      { table: 'health-a', limit: 1 },
      { table: 'health-b', limit: 1 },
    ]);
  });

  it('reports a missing table and a failing read by their codes, without rejecting', async () => {
    const driver = new FakeDriver({ implicitTables: false });
    const mapper = new BigtableMapper({ driver, entities: [A, B] });
    await mapper.sync();
    await driver.deleteTable({ table: 'health-b' });
    const report = await mapper.health();
    expect(report.healthy).toBe(false);
    expect(report.tables.map(({ table, healthy, code }) => ({ table, healthy, code }))).toEqual([
      { table: 'health-a', healthy: true, code: undefined },
      { table: 'health-b', healthy: false, code: 'TABLE_NOT_FOUND' },
    ]);
    driver.failNext('readRows', GrpcCode.Unavailable);
    const down = await mapper.health();
    expect(down.healthy).toBe(false);
    expect(down.tables.map((t) => t.code)).toContain('DRIVER');
  });

  it('checks the instance with a table listing when no entity is registered', async () => {
    const driver = new FakeDriver();
    const mapper = new BigtableMapper({ driver });
    expect(await mapper.health()).toMatchObject({ healthy: true, tables: [{ table: '', healthy: true }] });
    expect(driver.callsOf('listTables')).toHaveLength(1);
  });

  it('stops at its deadline or signal and reports it as the outcome', async () => {
    const driver = new FakeDriver();
    const mapper = new BigtableMapper({ driver, entities: [A] });
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    const report = await mapper.health({ signal: controller.signal });
    expect(report).toMatchObject({ healthy: false, tables: [{ table: 'health-a', healthy: false, code: 'ABORTED' }] });
    await expect(mapper.health({ timeout: 5 } as never)).rejects.toThrow(ValidationError);
  });
});
