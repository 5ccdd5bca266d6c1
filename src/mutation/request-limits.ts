import { ValidationError, ValueEncodingError } from '../errors/errors.js';
import { setCellValueLength, type CellMutation } from '../model/mutation.js';

const MiB = 1024 * 1024;

/** Cloud Bigtable's largest cell value: 100 MiB. @internal */
export const MAX_CELL_BYTES = 100 * MiB;

/** Cloud Bigtable's largest row: 256 MiB, checked on what one write sends to a row. @internal */
export const MAX_ROW_BYTES = 256 * MiB;

/** The largest request message Cloud Bigtable accepts (256 MiB, as the Java client's channel allows). @internal */
export const MAX_REQUEST_BYTES = 256 * MiB;

/** Protobuf framing counted per cell mutation (tags, lengths, the timestamp). */
const MUTATION_OVERHEAD = 24;
/** Protobuf framing counted per row entry of a MutateRows request. */
const ENTRY_OVERHEAD = 8;

/**
 * About how many bytes a row's mutations take in a request: the row key,
 * every family, qualifier and value, and a small fixed overhead per mutation
 * and per row. Counted from lengths, without serializing; qualifiers count
 * their UTF-16 length (their UTF-8 size for the usual ASCII names).
 * @internal
 */
export function rowMutationBytes(rowKey: Buffer, mutations: readonly CellMutation[]): number {
  let bytes = rowKey.length + ENTRY_OVERHEAD;
  for (const m of mutations) {
    bytes += MUTATION_OVERHEAD;
    if (m.kind === 'setCell') bytes += m.family.length + m.qualifier.length + setCellValueLength(m);
    else if (m.kind === 'deleteFromColumn') bytes += m.family.length + m.qualifier.length;
    else if (m.kind === 'deleteFromFamily') bytes += m.family.length;
    else if (m.kind === 'addToCell') bytes += m.family.length + m.qualifier.length + 8;
    else if (m.kind === 'mergeToCell') bytes += m.family.length + m.qualifier.length + m.state.length;
  }
  return bytes;
}

/**
 * Throws a `ValueEncodingError` naming `Entity.property` when an encoded cell
 * value is over {@link MAX_CELL_BYTES}: the server would reject it, after the
 * whole request had been sent.
 * @internal
 */
export function checkCellSize(entity: string, property: string, value: Buffer): void {
  if (value.length <= MAX_CELL_BYTES) return;
  throw new ValueEncodingError(
    entity,
    property,
    value,
    `is ${value.length} bytes encoded, over Cloud Bigtable's cell limit of ${MAX_CELL_BYTES} bytes (100 MiB). Fix: store large objects elsewhere (e.g. object storage) and keep a reference, or split the value over several columns`,
  );
}

/**
 * Throws a `ValidationError` naming the entity and row when one write sends
 * more than {@link MAX_ROW_BYTES} to a row (see {@link rowMutationBytes}).
 * @internal
 */
export function checkRowSize(
  entity: string,
  rowKeyText: string,
  rowKey: Buffer,
  mutations: readonly CellMutation[],
): void {
  const bytes = rowMutationBytes(rowKey, mutations);
  if (bytes <= MAX_ROW_BYTES) return;
  throw new ValidationError(
    `${entity} ${JSON.stringify(rowKeyText)}: the row write is about ${bytes} bytes, over Cloud Bigtable's row limit of ${MAX_ROW_BYTES} bytes (256 MiB). Fix: store large values elsewhere (e.g. object storage) and keep a reference, or spread them over several rows`,
    { entity, rowKey: rowKeyText, bytes, limit: MAX_ROW_BYTES },
  );
}
