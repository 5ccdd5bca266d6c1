import type { BenchContext } from './context.js';
import { defineSaltedEvent, defineWideRow, type SaltedEventClass, type WideRowClass } from './entities.js';
import { entities, eventKey, wideKey, wideValues } from './dataset.js';
import { prebuiltEntry } from './raw-entries.js';
import { loadPrebuilt } from './raw-writes.js';

/** The shared wide table: `rows` rows written once with the raw pre-built loop. @example `const { tableId, Wide } = await wideDataset(ctx);` */
export interface WideDataset {
  readonly tableId: string;
  readonly rows: number;
  readonly Wide: WideRowClass;
}

/** The same events twice: salted over 8 buckets (written by the mapper) and unsalted (raw). @example `const data = await saltedDataset(ctx);` */
export interface SaltedDataset {
  readonly saltedTableId: string;
  readonly unsaltedTableId: string;
  readonly rows: number;
  readonly Salted: SaltedEventClass;
}

/** The events salted over `buckets` md5 buckets (written by the mapper), the same rows as {@link SaltedDataset}'s. @example `const { tableId, Salted } = await saltedEvents(ctx, 32);` */
export interface SaltedEvents {
  readonly tableId: string;
  readonly rows: number;
  readonly buckets: number;
  readonly Salted: SaltedEventClass;
}

/** Writes (once per run) and returns the wide scan / point-read table. @example `await wideDataset(ctx)` */
export function wideDataset(ctx: BenchContext): Promise<WideDataset> {
  return ctx.dataset('wide', async () => {
    const rows = ctx.options.rows;
    const tableId = await ctx.createTable('wide');
    const micros = Date.now() * 1000;
    ctx.log(`  loading ${rows} wide rows (raw pre-built loop, untimed)`);
    await loadPrebuilt(ctx.table(tableId), rows, (i) => prebuiltEntry(wideKey(i), wideValues(i), micros));
    return { tableId, rows, Wide: defineWideRow(tableId) };
  });
}

/** Writes (once per run) and returns the salted and unsalted event tables. @example `await saltedDataset(ctx)` */
export function saltedDataset(ctx: BenchContext): Promise<SaltedDataset> {
  return ctx.dataset('salted', async () => {
    const rows = ctx.options.rows;
    const saltedTableId = await ctx.createTable('salted');
    const unsaltedTableId = await ctx.createTable('unsalted');
    const Salted = defineSaltedEvent(saltedTableId);
    ctx.log(`  loading ${rows} events salted (mapper saveMany) and unsalted (raw), untimed`);
    await ctx
      .mapper()
      .getRepository(Salted)
      .saveMany(entities(Salted, 0, rows));
    const micros = Date.now() * 1000;
    await loadPrebuilt(ctx.table(unsaltedTableId), rows, (i) => prebuiltEntry(eventKey(i), wideValues(i), micros));
    return { saltedTableId, unsaltedTableId, rows, Salted };
  });
}

/**
 * The salted events over `buckets` buckets: the 8-bucket table of
 * {@link saltedDataset} for 8, otherwise a table written once per run with the
 * mapper's `saveMany`, untimed (the same rows, another salt).
 * @example `const { tableId, Salted } = await saltedEvents(ctx, 64);`
 */
export async function saltedEvents(ctx: BenchContext, buckets: number): Promise<SaltedEvents> {
  if (buckets === 8) {
    const data = await saltedDataset(ctx);
    return { tableId: data.saltedTableId, rows: data.rows, buckets, Salted: data.Salted };
  }
  return ctx.dataset(`salted-${buckets}`, async () => {
    const rows = ctx.options.rows;
    const tableId = await ctx.createTable(`salted${buckets}`);
    const Salted = defineSaltedEvent(tableId, buckets);
    ctx.log(`  loading ${rows} events salted over ${buckets} buckets (mapper saveMany), untimed`);
    await ctx
      .mapper()
      .getRepository(Salted)
      .saveMany(entities(Salted, 0, rows));
    return { tableId, rows, buckets, Salted };
  });
}
