import type { BigtableDriver } from '../model/driver.js';
import type { CollectionLayout, CollectionMember } from '../key/collection-layout.js';
import { ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { hydrate } from '../read/hydrate.js';
import type { ResolvedRead } from '../read/read-options.js';
import type { MappedBatches } from '../stream/batch-stream.js';
import { eachItem } from '../stream/async-iterable.js';
import { checkOptionNames } from '../util/option-names.js';
import { printableBytes } from '../util/printable-bytes.js';
import { abortableBatches } from '../operation/abortable-batches.js';
import { runOperation, startOperation, type OperationContext } from '../operation/operation.js';
import { encodeCollectionCursor } from './collection-cursor.js';
import {
  COLLECTION_READ_OPTION_NAMES,
  type CollectionItem,
  type CollectionMembers,
  type CollectionReadOptions,
} from './collection-query.js';
import { executeCollectionScan, type CollectionRow } from './collection-scan.js';
import { planCollectionScan, type CollectionScanPlan } from './plan-collection.js';
import type { Page } from './scan-ops.js';

/** A collection read's options, whatever its members (the `Collection` class types them). @internal */
export type AnyCollectionOptions = CollectionReadOptions<CollectionMembers> & { readonly pageSize?: number };

/** An item of a collection read, whatever its members. */
type AnyCollectionItem = CollectionItem<CollectionMembers>;

/** The rows of no member `read()` keeps the keys of; it counts the rest. */
const KEPT_UNKNOWN_KEYS = 100;

/** What `read()` resolves with, whatever the members: per member its entity or entities, and the unknown rows. */
type AnyCollectionResult = Record<string, unknown> & {
  unknownRows: { readonly count: number; readonly rowKeys: readonly string[] };
};

/**
 * Plans a collection scan for `operation` after checking the names of its options.
 * @internal
 */
export function planCollectionCall(
  layout: CollectionLayout,
  prefix: unknown,
  options: AnyCollectionOptions,
  nowMicros: number,
  operation: string,
  extra: readonly string[] = [],
): CollectionScanPlan {
  checkOptionNames(`${layout.name}.${operation}`, options, [...COLLECTION_READ_OPTION_NAMES, ...extra]);
  return planCollectionScan(layout, prefix, options, nowMicros, operation);
}

/**
 * Opens a collection scan: the batch stream of its rows, and how each row
 * becomes an item, hydrated as the reader takes it; `iterate()` reads it item
 * by item, `scan()` as an Observable. Its deadline and `signal` (and
 * `mapper.close()`) cancel it, as for a repository scan.
 * @internal
 */
export function openCollection(
  driver: BigtableDriver,
  layout: CollectionLayout,
  prefix: unknown,
  options: AnyCollectionOptions,
  context: OperationContext,
  operation: string,
): MappedBatches<CollectionRow, AnyCollectionItem> {
  const now = context.clock() * 1000;
  const planned = planCollectionCall(layout, prefix, options, now, operation);
  const name = `${layout.name}.${operation}`;
  const running = startOperation(context, 'scan', name, options);
  const { batches, settled } = abortableBatches(
    executeCollectionScan(driver, layout, planned, running.call),
    running,
    name,
  );
  void context.track(settled);
  return { stream: batches, map: itemOf(layout, planned.reads, now) };
}

/**
 * Reads a whole aggregate into one object: per member its entity (or
 * `undefined`) or its entities in scan order, and the rows of no member
 * (the first 100 keys, and their count).
 * @internal
 */
export function readCollection(
  driver: BigtableDriver,
  layout: CollectionLayout,
  prefix: unknown,
  options: AnyCollectionOptions,
  context: OperationContext,
): Promise<AnyCollectionResult> {
  const name = `${layout.name}.read`;
  const now = context.clock() * 1000;
  let planned: CollectionScanPlan;
  try {
    planned = planCollectionCall(layout, prefix, options, now, 'read');
  } catch (err) {
    return Promise.reject(err);
  }
  return runOperation(context, 'scan', name, options, async (call) => {
    const found = new Map<string, unknown>(layout.members.map((m) => [m.name, m.many ? [] : undefined]));
    const unknownKeys: string[] = [];
    let unknown = 0;
    const map = itemOf(layout, planned.reads, now);
    for await (const item of eachItem(executeCollectionScan(driver, layout, planned, call), map)) {
      if (item.kind === undefined) {
        unknown++;
        if (unknownKeys.length < KEPT_UNKNOWN_KEYS) unknownKeys.push(item.rowKey);
        continue;
      }
      const held = found.get(item.kind);
      if (Array.isArray(held)) held.push(item.entity);
      else found.set(item.kind, item.entity);
    }
    const unknownRows = Object.freeze({ count: unknown, rowKeys: Object.freeze(unknownKeys) });
    return Object.assign(Object.fromEntries(found), { unknownRows });
  });
}

/**
 * Reads the next `pageSize` items of a collection scan and a cursor that
 * resumes right after the last one, `undefined` when nothing follows: it
 * reads one item more than the page to know.
 * @internal
 */
export function readCollectionPage(
  driver: BigtableDriver,
  layout: CollectionLayout,
  prefix: unknown,
  options: AnyCollectionOptions,
  context: OperationContext,
): Promise<Page<CollectionItem<CollectionMembers>>> {
  const name = `${layout.name}.page`;
  const now = context.clock() * 1000;
  let planned: CollectionScanPlan;
  try {
    planned = planCollectionCall(layout, prefix, options, now, 'page', ['pageSize']);
    checkPageSize(layout, options.pageSize);
  } catch (err) {
    return Promise.reject(err);
  }
  const pageSize = options.pageSize as number;
  return runOperation(context, 'scan', name, options, async (call) => {
    const items: AnyCollectionItem[] = [];
    const taken = [...planned.taken];
    const map = itemOf(layout, planned.reads, now);
    let last: CollectionRow | undefined;
    let more = false;
    for await (const rows of executeCollectionScan(driver, layout, planned, call)) {
      for (const scanned of rows) {
        if (items.length === pageSize) {
          more = true;
          break;
        }
        items.push(map(scanned));
        if (scanned.member >= 0) taken[scanned.member] = (taken[scanned.member] as number) + 1;
        last = scanned;
      }
      if (more) break;
    }
    if (!more || last === undefined) return { items, cursor: undefined };
    const limited = layout.members.flatMap((m, i) =>
      planned.remaining[i] === undefined ? [] : [[m.name, taken[i] as number] as const],
    );
    const cursor = encodeCollectionCursor({
      lastKey: last.row.key.subarray(planned.segmentBytes),
      taken: Object.fromEntries(limited),
      scope: planned.plan.scope,
    });
    return { items, cursor };
  });
}

function checkPageSize(layout: CollectionLayout, pageSize: unknown): void {
  if (typeof pageSize === 'number' && Number.isSafeInteger(pageSize) && pageSize >= 1) return;
  throw new ValidationError(
    `${layout.name}.page: pageSize must be a positive integer, got ${preview(pageSize)}. Fix: pass { pageSize: 100 }`,
    { collection: layout.name, argument: 'pageSize' },
  );
}

/** How a scanned row becomes an item: its member's entity, hydrated with the member's read, or its key. */
function itemOf(
  layout: CollectionLayout,
  reads: readonly ResolvedRead[],
  nowMicros: number,
): (scanned: CollectionRow) => AnyCollectionItem {
  return ({ row, member }) => {
    if (member < 0) return { kind: undefined, rowKey: printableBytes(row.key) };
    const { name, schema } = layout.members[member] as CollectionMember;
    return { kind: name, entity: hydrate(schema, row, reads[member] as ResolvedRead, nowMicros) as object };
  };
}
