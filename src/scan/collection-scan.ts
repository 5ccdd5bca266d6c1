import type { BigtableDriver, CallOptions, ReadRowsRequest, RowData } from '../model/driver.js';
import type { CollectionLayout, CollectionMember } from '../key/collection-layout.js';
import { isMarkOnly } from '../metadata/resalt-mark.js';
import { batchOf, batchStream, mapBatches, type BatchStream } from '../stream/batch-stream.js';
import { sameBytesAt } from '../util/compare-bytes.js';
import type { CollectionScanPlan } from './plan-collection.js';

/**
 * A row of a collection scan with its kind: the index of its member in the
 * layout, or -1 when its key names no member.
 * @internal
 */
export interface CollectionRow {
  readonly row: RowData;
  readonly member: number;
}

/**
 * Runs a collection plan: one ReadRows over the aggregate's range (reversed
 * for `key-desc`), each row told apart by the marker after the shared prefix.
 * A member's rows past its limit are skipped; once every member has a limit
 * and each is reached, the read stops. Rows that hold only a finished
 * re-salt's move mark are no rows. Cancelling the stream cancels the read.
 * @internal
 */
export function executeCollectionScan(
  driver: BigtableDriver,
  layout: CollectionLayout,
  planned: CollectionScanPlan,
  call?: CallOptions,
): BatchStream<CollectionRow> {
  const { plan, markerAt } = planned;
  const [source] = plan.sources;
  const remaining = [...planned.remaining];
  const everyLimited = remaining.every((r) => r !== undefined);
  const done = (): boolean => everyLimited && remaining.every((r) => r === 0);
  if (source === undefined || done()) return batchOf([]);
  const request: ReadRowsRequest = { table: plan.table, ranges: [source.range], filter: plan.filter };
  const rows = driver.readRows(plan.order === 'key-desc' ? { ...request, reversed: true } : request, call);
  const classified = mapBatches(rows, (row): CollectionRow | undefined => {
    if (isMarkOnly(row)) return undefined;
    const member = memberOf(layout.members, row.key, markerAt);
    if (member >= 0) {
      const left = remaining[member];
      if (left === 0) return undefined;
      if (left !== undefined) remaining[member] = left - 1;
    }
    return { row, member };
  });
  return everyLimited ? until(classified, done) : classified;
}

/**
 * The member whose marker follows the shared prefix in `key`: its
 * discriminator and separator (or terminator), or its discriminator ending
 * the key. -1 for none. Discriminators are distinct and each marker ends
 * where the discriminator does, so at most one matches.
 */
function memberOf(members: readonly CollectionMember[], key: Uint8Array, markerAt: number): number {
  for (let i = 0; i < members.length; i++) {
    const { marker, endsKey } = members[i] as CollectionMember;
    const end = markerAt + marker.length;
    if (end > key.length || (endsKey && end !== key.length)) continue;
    if (sameBytesAt(key, markerAt, end, marker)) return i;
  }
  return -1;
}

/** The batches of `inner` until `finished()` holds after one: then `inner` is cancelled and the stream ends. */
function until<T>(inner: BatchStream<T>, finished: () => boolean): BatchStream<T> {
  let ended = false;
  return batchStream({
    pull: async () => {
      if (ended) return undefined;
      const result = await inner.next();
      if (result.done === true) return undefined;
      if (finished()) {
        ended = true;
        inner.cancel();
      }
      return result.value;
    },
    stop: () => inner.cancel(),
  });
}
