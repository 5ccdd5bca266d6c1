import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { captureWorkload, renderHeatmap, type WorkloadCapture } from '../../../src/tools.js';
import { closeMapper, openMapper } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';

const table = uniqueTableId('capture');

@Entity({ table })
@Salt({ buckets: 4, on: ['userId'] })
@Family('d')
class Visit {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) n!: number;
  @Column({ family: 'd', type: 'string' }) page?: string;
}

let base: BigtableMapper;
let mapper: BigtableMapper;
let capture: WorkloadCapture;

beforeAll(async () => {
  base = openMapper([]);
  const captured = captureWorkload(base.driver);
  capture = captured.capture;
  mapper = new BigtableMapper({ driver: captured.driver, entities: [Visit] });
  await mapper.sync();
});

afterAll(async () => {
  await mapper.close();
  await closeMapper(base, [table]);
});

describe('captureWorkload on the emulator', () => {
  it('counts the saves and scans a mapper sends through the capturing driver', async () => {
    const repo = mapper.getRepository(Visit);
    const visits = Array.from({ length: 60 }, (_, n) =>
      Object.assign(new Visit(), { userId: n % 2 === 0 ? 'celebrity' : `user${n}`, n, page: '/' }),
    );
    await repo.saveMany(visits);
    await repo.save(Object.assign(new Visit(), { userId: 'late', n: 1, page: '/x' }));
    const celebrity: Visit[] = [];
    for await (const v of repo.iterate({ where: { userId: 'celebrity' } })) celebrity.push(v);
    expect(celebrity).toHaveLength(30);

    const writes = capture.entries().filter((op) => op.kind === 'write' && op.table === table);
    expect(writes).toHaveLength(61);
    // on: ['userId'] puts one user in one bucket, so the scan of one user is one range.
    const scans = capture.entries().filter((op) => op.kind === 'scan' && op.table === table);
    expect(scans).toHaveLength(1);

    const data = capture.toHeatmap({ table, entity: Visit, kinds: 'writes', timeColumns: 1 });
    const hot = data.keyRanges.findIndex((r) => r.label.endsWith('#celebrity'));
    expect(data.counts[0]?.[hot]).toBe(30);
    expect(data.counts[0]?.reduce((a, b) => a + b, 0)).toBe(61);

    const svg = renderHeatmap(data, { format: 'svg', title: 'Captured writes' });
    expect(svg).toContain('#celebrity</text>');
  });
});
