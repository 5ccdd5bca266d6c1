import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';

/**
 * protobufjs loaded with the Bigtable data messages of
 * `test/fixtures/bigtable-data-wire.proto` (googleapis definitions) and its
 * own well-known `google.protobuf` types: the reference the hand-written wire
 * codec is held to.
 * @example
 * ```ts
 * const ReadRowsResponse = wireReference().lookupType('google.bigtable.v2.ReadRowsResponse');
 * const bytes = ReadRowsResponse.encode(ReadRowsResponse.fromObject({ chunks: [] })).finish();
 * ```
 */
export function wireReference(): protobuf.Root {
  root ??= loadReference();
  return root;
}

let root: protobuf.Root | undefined;

const WELL_KNOWN = [
  'google/protobuf/any.proto',
  'google/protobuf/duration.proto',
  'google/protobuf/timestamp.proto',
  'google/protobuf/wrappers.proto',
];

function loadReference(): protobuf.Root {
  const loaded = new protobuf.Root();
  for (const file of WELL_KNOWN) {
    const json = protobuf.common.get(file);
    if (json?.nested === undefined) throw new Error(`protobufjs has no ${file}`);
    loaded.addJSON(json.nested);
  }
  const text = readFileSync(new URL('../fixtures/bigtable-data-wire.proto', import.meta.url), 'utf8');
  // The fixture holds two files' worth (two packages): each part from its `syntax` line is parsed on its own.
  for (const part of text.split(/^(?=syntax = )/m).filter((p) => p.startsWith('syntax')))
    protobuf.parse(part, loaded, { keepCase: false });
  loaded.resolveAll();
  return loaded;
}

/**
 * A copy of `message` (an object protobufjs's `fromObject` takes) without the
 * fields a proto3 encoder leaves out: scalars of implicit presence (outside a
 * oneof) at their default value. Message and oneof fields stay, set or not.
 * @example
 * ```ts
 * withoutDefaults(SetCell, { familyName: '', timestampMicros: 5 }); // { timestampMicros: 5 }
 * ```
 */
export function withoutDefaults(type: protobuf.Type, message: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const value = message[field.name];
    if (value == null) continue;
    const nested = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    if (field.repeated) {
      copy[field.name] = (value as unknown[]).map((item) =>
        nested === undefined ? item : withoutDefaults(nested, item as Record<string, unknown>),
      );
    } else if (nested !== undefined) {
      copy[field.name] = withoutDefaults(nested, value as Record<string, unknown>);
    } else if (field.partOf != null || !isDefault(field.type, value)) {
      copy[field.name] = value;
    }
  }
  return copy;
}

const INT64_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function isDefault(type: string, value: unknown): boolean {
  if (value === '' || value === false) return true;
  if (typeof value === 'number' && (type === 'double' || type === 'float')) return value === 0;
  // Integers as protobufjs converts them: NaN is 0, fractions truncate.
  if (typeof value === 'number') return Number.isNaN(value) || Math.trunc(value) === 0;
  if (typeof value === 'bigint') return value === 0n;
  if (value instanceof Uint8Array) return value.length === 0;
  return INT64_TYPES.has(type) && /^-?0+$/.test(String(value));
}
