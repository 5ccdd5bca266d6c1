import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigtableMapper, Repository } from '../../src/index.js';
import { closeMapper, makeEntities, openMapper } from '../fixtures/entities.js';

const E = makeEntities('mem');
type TinyRow = InstanceType<typeof E.TinyRow>;

const ROWS = 200_000;
const NOTE = 'n'.repeat(90); // ~100 bytes of cell data per row: ~20 MB of values, ~100+ MB of heap if buffered
const MB = 1024 * 1024;

let mapper: BigtableMapper;
let rows: Repository<TinyRow>;

/**
 * A full GC when one can be had without touching the runner's config:
 * `global.gc` if exposed, else the V8 flag set at runtime. Without it the
 * bound below is simply measured on a noisier heap.
 */
function collector(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  mapper = openMapper([E.TinyRow]);
  await mapper.sync();
  rows = mapper.getRepository(E.TinyRow);
}, 60_000);

afterAll(() => closeMapper(mapper, [E.tables.tiny]), 60_000);

describe('memory of a long scan with a slow consumer', () => {
  it('streams 200,000 rows with bounded heap growth (nothing is buffered ahead of the consumer)', async () => {
    async function* generate(): AsyncGenerator<TinyRow> {
      for (let id = 0; id < ROWS; id++) yield Object.assign(new E.TinyRow(), { id, note: NOTE, n: id });
    }
    const written = await rows.saveMany(generate(), { batchSize: 500, concurrency: 2 });
    expect(written).toEqual({ written: ROWS });

    const gc = collector();
    const heap = () => {
      gc?.();
      return process.memoryUsage().heapUsed;
    };
    const baseline = heap();
    let peak = 0;
    let count = 0;
    let sum = 0;
    let expectedId = 0;
    let outOfOrder = 0;
    // TinyRow is unsalted: ids come back in key order.
    for await (const row of rows.iterate({})) {
      if (row.id !== expectedId) outOfOrder++;
      expectedId = row.id + 1;
      sum += row.n ?? 0;
      count++;
      await new Promise((resolve) => setImmediate(resolve));
      if (count % 1_000 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      if (count % 10_000 === 0) peak = Math.max(peak, heap() - baseline);
    }
    const growthMb = peak / MB;
    console.info(
      `memory test: ${count} rows, heap growth peak ${growthMb.toFixed(1)} MB (${gc ? 'after full GC' : 'without forced GC'})`,
    );
    expect(count).toBe(ROWS);
    expect(outOfOrder).toBe(0);
    expect(sum).toBe((ROWS * (ROWS - 1)) / 2);
    // Buffering 200k rows would hold well over 100 MB of heap; streaming keeps it flat.
    expect(growthMb).toBeLessThan(64);
  }, 240_000);
});
