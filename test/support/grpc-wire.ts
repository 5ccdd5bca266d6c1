/**
 * The little of gRPC's and protobuf's wire formats that the loopback test
 * servers need to read a request and write an answer without a proto
 * compiler: length-prefixed gRPC messages, varints, the top-level
 * length-delimited fields of a message, and MutateRows entries.
 * @example
 * ```ts
 * const entries = lengthDelimitedFields(grpcMessage(body)).get(2)?.length ?? 0; // MutateRowsRequest.entries
 * stream.end(grpcFrame(okMutateRowsEntries(entries)));
 * ```
 */

/** The bytes of `value` as a protobuf varint. */
export function varintBytes(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/** A gRPC message as sent on an HTTP/2 stream: not compressed, its length in 4 bytes, then the message. */
export function grpcFrame(message: Buffer): Buffer {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}

/** The message of a request body that holds one gRPC frame. */
export function grpcMessage(body: Buffer): Buffer {
  return body.subarray(5);
}

/** Every length-delimited field at the top level of a protobuf message, by field number, in order. */
export function lengthDelimitedFields(message: Buffer): Map<number, Buffer[]> {
  const fields = new Map<number, Buffer[]>();
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      const byte = message[at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
    }
  };
  while (at < message.length) {
    const tag = varint();
    const wireType = tag % 8;
    if (wireType === 0) varint();
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else {
      const length = varint();
      const field = Math.floor(tag / 8);
      fields.set(field, [...(fields.get(field) ?? []), message.subarray(at, at + length)]);
      at += length;
    }
  }
  return fields;
}

/** A MutateRowsResponse's `entries` (field 1): `{ index: i, status: {} }` (OK) for each of `n` entries. */
export function okMutateRowsEntries(n: number): Buffer {
  const parts: Buffer[] = [];
  for (let index = 0; index < n; index++) {
    const entry = Buffer.from([0x08, ...varintBytes(index), 0x12, 0x00]);
    parts.push(Buffer.from([0x0a, ...varintBytes(entry.length)]), entry);
  }
  return Buffer.concat(parts);
}
