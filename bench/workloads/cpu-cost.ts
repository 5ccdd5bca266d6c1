import { ChunkTransformer } from '@google-cloud/bigtable/build/src/chunktransformer.js';
import { Mutation } from '@google-cloud/bigtable/build/src/mutation.js';
import { compileEntity } from '../../src/metadata/compile-entity.js';
import { encodeRowKey } from '../../src/tools.js';
import { ChunkMerger } from '../../src/driver/chunk-merger.js';
import type { RowData } from '../../src/model/driver.js';
import { encodeMutateEntry } from '../../src/driver/data-wire-requests.js';
import { compileSave } from '../../src/mutation/compile-save.js';
import { hydrate } from '../../src/read/hydrate.js';
import { resolveRead } from '../../src/read/read-options.js';
import { clientRow, rowChunks } from '../client-row-fixture.js';
import { nsPerCall } from '../cpu-timer.js';
import { defineSaltedEvent, defineWideRow, type WideValues } from '../entities.js';
import { defineValidatedWideRow } from '../validated-entities.js';
import { entities, eventKey, plainRows, wideKey } from '../dataset.js';
import { objectEntry, prebuiltEntry } from '../raw-entries.js';
import { toWideValues, type RawRow } from '../raw-rows.js';
import type { BenchContext } from '../context.js';
import type { CpuItem, CpuResult, Ratio } from '../results.js';

const DISTINCT = 1_000;

/**
 * Workload 5, CPU only (no database): nanoseconds per entity of each step the
 * mapper adds (key encoding, salting, `compileSave`, the driver's encoding
 * of the MutateRows entry, `compileSave` again with a zod or a valibot validator
 * on every column (their cost per entity is the difference), the driver's merge of ReadRows chunks into a row, `hydrate`)
 * next to the raw client's own per-row work (building an object entry and its
 * `Mutation.parse`, building a pre-built entry, its `ChunkTransformer` merging
 * the same chunks, turning a client row into a plain object).
 * @example `const result = cpuCost(ctx);`
 */
export function cpuCost(ctx: BenchContext): CpuResult {
  const n = ctx.options.cpuIterations;
  ctx.log(`cpu: ${n} entities per timed pass`);
  const Wide = defineWideRow('cpu-wide');
  const Salted = defineSaltedEvent('cpu-salted');
  const wide = compileEntity(Wide);
  const salted = compileEntity(Salted);
  const salt = salted.key.salt;
  if (salt === undefined) throw new Error('the salted bench entity has no salt');
  const now = Date.now();
  const at = <T>(list: readonly T[], i: number): T => list[i % DISTINCT] as T;
  const wideInputs = (): WideValues[] => entities(Wide, 0, DISTINCT);
  const clientRows = (): RawRow[] => plainRows(0, DISTINCT).map((v) => clientRow(wideKey(v.id), v, String(now * 1000)));
  const responses = () =>
    plainRows(0, DISTINCT).map((v) => ({
      chunks: rowChunks(wideKey(v.id), v, String(now * 1000)),
      lastScannedRowKey: Buffer.alloc(0),
    }));
  const merged = (): RowData[] => {
    const rows: RowData[] = [];
    const merger = new ChunkMerger();
    for (const response of responses()) merger.push(response.chunks, (row) => rows.push(row));
    return rows;
  };

  /** Prepares an item's inputs just before timing it, so no item's retained data slows another's allocations. */
  const measure = (
    id: string,
    label: string,
    side: CpuItem['side'],
    prepare: () => (i: number) => unknown,
  ): CpuItem => {
    const item = { id, label, side, nsPerEntity: nsPerCall(prepare(), n) };
    ctx.log(`  ${label}: ${item.nsPerEntity} ns/entity`);
    return item;
  };
  const items: CpuItem[] = [
    measure('key-encode', 'mapper: encode row key (unsalted)', 'mapper', () => {
      const inputs = wideInputs() as unknown as Record<string, unknown>[];
      return (i) => encodeRowKey(wide, at(inputs, i));
    }),
    measure('key-encode-salted', 'mapper: encode row key (salted, 8 buckets)', 'mapper', () => {
      const inputs = entities(Salted, 0, DISTINCT) as unknown as Record<string, unknown>[];
      return (i) => encodeRowKey(salted, at(inputs, i));
    }),
    measure('salt-bucket', 'mapper: salt bucket alone (md5)', 'mapper', () => {
      const keys = plainRows(0, DISTINCT).map((v) => eventKey(v.id));
      return (i) => salt.bucketOf(at(keys, i));
    }),
    measure('compile-save', 'mapper: compileSave (10 cells)', 'mapper', () => {
      const inputs = wideInputs();
      return (i) => compileSave(wide, at(inputs, i), { now });
    }),
    ...(['zod', 'valibot'] as const).map((library) =>
      measure(
        `compile-save-${library}`,
        `mapper: compileSave (10 cells, each with a ${library} validator)`,
        'mapper',
        () => {
          const Validated = defineValidatedWideRow(`cpu-${library}`, library);
          const schema = compileEntity(Validated);
          const inputs = entities(Validated, 0, DISTINCT);
          return (i) => compileSave(schema, at(inputs, i), { now });
        },
      ),
    ),
    measure('encode-entry', 'mapper driver: CompiledMutation -> MutateRows entry bytes', 'mapper', () => {
      const compiled = wideInputs().map((e) => compileSave(wide, e, { now }));
      return (i) => encodeMutateEntry(at(compiled, i));
    }),
    measure('merge-chunks', 'mapper driver: ReadRows chunks -> RowData', 'mapper', () => {
      const list = responses();
      const merger = new ChunkMerger();
      let row: RowData | undefined;
      const take = (r: RowData): void => void (row = r);
      return (i) => {
        merger.lastKey = undefined;
        merger.push(at(list, i).chunks, take);
        return row;
      };
    }),
    measure('hydrate', 'mapper: hydrate (RowData -> entity)', 'mapper', () => {
      const rows = merged();
      const read = resolveRead(wide as never);
      return (i) => hydrate(wide, at(rows, i), read, now * 1000);
    }),
    measure('raw-object-entry', 'raw: build object entry', 'raw', () => {
      const plain = plainRows(0, DISTINCT);
      return (i) => objectEntry(wideKey(at(plain, i).id), at(plain, i));
    }),
    measure('raw-mutation-parse', 'raw: build object entry + client Mutation.parse', 'raw', () => {
      const plain = plainRows(0, DISTINCT);
      return (i) =>
        Mutation.parse({
          ...objectEntry(wideKey(at(plain, i).id), at(plain, i)),
          method: 'insert',
        } as unknown as Mutation);
    }),
    measure('raw-prebuilt-entry', 'raw: build pre-built rawMutation entry', 'raw', () => {
      const plain = plainRows(0, DISTINCT);
      return (i) => prebuiltEntry(wideKey(at(plain, i).id), at(plain, i), now * 1000);
    }),
    measure('raw-chunk-transformer', 'raw: client ChunkTransformer (chunks -> client row)', 'raw', () => {
      const list = responses();
      const transformer = new ChunkTransformer({ decode: false } as never) as unknown as {
        lastRowKey: unknown;
        push: (row: unknown) => boolean;
        _transform: (data: unknown, encoding: string, next: () => void) => void;
      };
      let row: unknown;
      transformer.push = (r) => ((row = r), true);
      const next = (): void => undefined;
      return (i) => {
        transformer.lastRowKey = undefined;
        transformer._transform(at(list, i), 'utf8', next);
        return row;
      };
    }),
    measure('raw-row-to-object', 'raw: client row -> plain object', 'raw', () => {
      const rows = clientRows();
      return (i) => toWideValues(at(rows, i), 4);
    }),
  ];
  const ns = (id: string): number => items.find((x) => x.id === id)?.nsPerEntity ?? Number.NaN;
  const speed = (id: string, label: string, raw: number, mapper: number): Ratio => ({
    id,
    label,
    value: Math.round((raw / mapper) * 1000) / 1000,
  });
  const mapperWrite = ns('compile-save') + ns('encode-entry');
  const mapperRead = ns('merge-chunks') + ns('hydrate');
  return {
    kind: 'cpu',
    id: 'cpu',
    title: `CPU per entity, no database (${n.toLocaleString('en-US')} entities per pass, median of 5)`,
    iterations: n,
    items,
    ratios: [
      speed(
        'write-vs-object-entry',
        'write path speed: raw (object entry + Mutation.parse) ns / mapper (compileSave + entry bytes) ns',
        ns('raw-mutation-parse'),
        mapperWrite,
      ),
      speed(
        'write-vs-prebuilt',
        'write path speed: raw pre-built entry ns / mapper (compileSave + entry bytes) ns',
        ns('raw-prebuilt-entry'),
        mapperWrite,
      ),
      speed(
        'read-vs-plain-object',
        'read path speed: raw (ChunkTransformer + row -> object) ns / mapper (chunks -> RowData + hydrate) ns',
        ns('raw-chunk-transformer') + ns('raw-row-to-object'),
        mapperRead,
      ),
    ],
  };
}
