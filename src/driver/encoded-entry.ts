import type { PreparedMutation } from '../model/mutation.js';
import type { RawEntry, RawMutation } from './client-mutation.js';
import { LENGTH_DELIMITED, WireReader } from './proto-wire.js';
import { VAR3, VAR6, VAR9, LEN1, LEN2, LEN3, LEN4, LEN5, LEN6, LEN8 } from './wire-tags.js';

/**
 * One MutateRows entry encoded once, as field 2 of the request (its tag and
 * length included), so that a request is its entries' bytes one after the
 * other: the Google Cloud driver's {@link PreparedMutation}. A bulk writer
 * holds these from the moment it accepts a row until the row is confirmed,
 * instead of the compiled mutation's cell objects and value buffers.
 * @internal
 */
export class EncodedEntry implements PreparedMutation {
  readonly kind = 'prepared';

  constructor(
    readonly table: string,
    readonly rowKey: Buffer,
    readonly rowKeyText: string,
    readonly idempotent: boolean,
    readonly cellCount: number,
    /** The row key's and values' bytes: what a write counts as written. */
    readonly dataBytes: number,
    /** `Entry` as field 2 of a `MutateRowsRequest`: tag, length, body. */
    readonly bytes: Buffer,
  ) {}

  /**
   * The entry as a message object again, for a call that takes the generated
   * method (which serializes objects): the row key, and each mutation as
   * {@link RawMutation}, int64s as numbers or decimal strings.
   */
  toRawEntry(): RawEntry {
    const reader = new WireReader(this.bytes);
    reader.tag();
    const outer = reader.enter();
    let rowKey = EMPTY;
    const mutations: RawMutation[] = [];
    while (reader.pos < reader.end) {
      const field = reader.tag();
      if (field === LEN1) rowKey = Buffer.from(reader.bytes());
      else if (field === LEN2) mutations.push(readMutation(reader));
      else reader.skipUnknown(field, false);
    }
    reader.leave(outer);
    return { rowKey, mutations };
  }
}

/** One `Mutation`: the member it sets (the last one, as protobuf reads a oneof). */
function readMutation(reader: WireReader): RawMutation {
  const outer = reader.enter();
  let mutation: RawMutation = { deleteFromRow: {} };
  while (reader.pos < reader.end) {
    const field = reader.tag();
    if (field === LEN1) mutation = { setCell: readSetCell(reader) };
    else if (field === LEN2) {
      const { familyName, columnQualifier } = readSetCell(reader);
      mutation = { deleteFromColumn: { familyName, columnQualifier } };
    } else if (field === LEN3) mutation = { deleteFromFamily: { familyName: readSetCell(reader).familyName } };
    else if (field === LEN4) {
      reader.skip(LENGTH_DELIMITED);
      mutation = { deleteFromRow: {} };
    } else if (field === LEN5) {
      const { familyName, values } = readAggregate(reader);
      mutation = {
        addToCell: { ...aggregateCell(familyName, values), input: { intValue: String(values[4]?.intValue ?? 0) } },
      };
    } else if (field === LEN6) {
      const { familyName, values } = readAggregate(reader);
      mutation = {
        mergeToCell: { ...aggregateCell(familyName, values), input: { rawValue: values[4]?.rawValue ?? EMPTY } },
      };
    } else reader.skipUnknown(field, false);
  }
  reader.leave(outer);
  return mutation;
}

const EMPTY = Buffer.alloc(0);

/** A `SetCell`, or the leading fields `DeleteFromColumn` and `DeleteFromFamily` share with it. */
function readSetCell(reader: WireReader): {
  familyName: string;
  columnQualifier: Buffer;
  timestampMicros: number;
  value: Buffer;
} {
  const outer = reader.enter();
  const cell = { familyName: '', columnQualifier: EMPTY, timestampMicros: 0, value: EMPTY };
  while (reader.pos < reader.end) {
    const field = reader.tag();
    if (field === LEN1) cell.familyName = reader.string();
    else if (field === LEN2) cell.columnQualifier = Buffer.from(reader.bytes());
    else if (field === VAR3) cell.timestampMicros = Number(reader.int64());
    else if (field === LEN4) cell.value = Buffer.from(reader.bytes());
    else reader.skipUnknown(field, false);
  }
  reader.leave(outer);
  return cell;
}

/** The `Value` members a mutation uses. */
interface ValueFields {
  rawValue?: Buffer;
  rawTimestampMicros?: number | string;
  intValue?: number | string;
}

/** An `AddToCell` or `MergeToCell`: its family and its `Value`s by field number (2 qualifier, 3 timestamp, 4 input). */
function readAggregate(reader: WireReader): { familyName: string; values: Record<number, ValueFields> } {
  const outer = reader.enter();
  let familyName = '';
  const values: Record<number, ValueFields> = {};
  while (reader.pos < reader.end) {
    const field = reader.tag();
    if (field === LEN1) familyName = reader.string();
    else if (field === LEN2 || field === LEN3 || field === LEN4) values[field >>> 3] = readValue(reader);
    else reader.skipUnknown(field, false);
  }
  reader.leave(outer);
  return { familyName, values };
}

function readValue(reader: WireReader): ValueFields {
  const outer = reader.enter();
  const value: ValueFields = {};
  while (reader.pos < reader.end) {
    const field = reader.tag();
    if (field === LEN8) value.rawValue = Buffer.from(reader.bytes());
    else if (field === VAR9) value.rawTimestampMicros = reader.int64();
    else if (field === VAR6) value.intValue = reader.int64();
    else reader.skipUnknown(field, false);
  }
  reader.leave(outer);
  return value;
}

function aggregateCell(
  familyName: string,
  values: Record<number, ValueFields>,
): { familyName: string; columnQualifier: { rawValue: Buffer }; timestamp: { rawTimestampMicros: number } } {
  return {
    familyName,
    columnQualifier: { rawValue: values[2]?.rawValue ?? EMPTY },
    timestamp: { rawTimestampMicros: Number(values[3]?.rawTimestampMicros ?? 0) },
  };
}
