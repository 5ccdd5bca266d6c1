import type { RawMutation } from './client-mutation.js';
import type { RowFilterMessage } from './row-filter-message.js';
import type { EncodedEntry } from './encoded-entry.js';

/**
 * A `google.bigtable.v2.MutateRowsRequest`.
 * @internal
 */
export interface MutateRowsMessage {
  readonly tableName: string;
  readonly appProfileId?: string;
  readonly entries: readonly EncodedEntry[];
}

/**
 * A `google.bigtable.v2.CheckAndMutateRowRequest`; a `null` predicate matches when the row has any cell.
 * @internal
 */
export interface CheckAndMutateRowMessage {
  readonly tableName: string;
  readonly appProfileId?: string | undefined;
  readonly rowKey: Buffer;
  readonly predicateFilter: RowFilterMessage | null;
  readonly trueMutations: readonly RawMutation[];
  readonly falseMutations: readonly RawMutation[];
}

/**
 * A `google.bigtable.v2.ReadModifyWriteRowRequest` of int64 increments (amounts as decimal strings).
 * @internal
 */
export interface ReadModifyWriteRowMessage {
  readonly tableName: string;
  readonly appProfileId?: string | undefined;
  readonly rowKey: Buffer;
  readonly rules: readonly {
    readonly familyName: string;
    readonly columnQualifier: Buffer;
    readonly incrementAmount: string;
  }[];
}

/**
 * One SampleRowKeys response message.
 * @internal
 */
export interface SampleRowKeysResponse {
  readonly rowKey?: Uint8Array | string | null;
  readonly offsetBytes?: number | string | { toString(): string } | null;
}

/**
 * The SampleRowKeys request message.
 * @internal
 */
export interface SampleRowKeysMessage {
  readonly tableName: string;
  readonly appProfileId?: string | undefined;
}
