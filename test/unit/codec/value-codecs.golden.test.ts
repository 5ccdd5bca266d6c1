import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createValueCodec } from '../../../src/codec/value-codecs.js';
import type { ColumnScalarType } from '../../../src/model/declarations.js';

interface ValueVector {
  type: ColumnScalarType;
  value: unknown;
  hex: string;
}

const golden = JSON.parse(readFileSync(new URL('../../golden/value-codecs.json', import.meta.url), 'utf8')) as {
  vectors: ValueVector[];
};

function toValue(v: ValueVector): unknown {
  switch (v.type) {
    case 'float':
      return typeof v.value === 'string' ? Number(v.value) : v.value;
    case 'date':
      return new Date(v.value as string);
    case 'bigint':
      return BigInt(v.value as string);
    case 'bytes':
      return Buffer.from(v.value as string, 'hex');
    default:
      return v.value;
  }
}

describe('value codec golden vectors', () => {
  it('covers every scalar type', () => {
    expect(new Set(golden.vectors.map((v) => v.type))).toEqual(
      new Set(['string', 'int', 'float', 'boolean', 'date', 'bigint', 'json', 'bytes']),
    );
  });

  it.each(golden.vectors.map((v) => [`${v.type} ${JSON.stringify(v.value)}`, v] as const))('%s', (_name, vector) => {
    const codec = createValueCodec('Golden', 'cell', vector.type);
    const value = toValue(vector);
    const bytes = codec.encode(value);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.toString('hex')).toBe(vector.hex);
    const decoded = codec.decode(Buffer.from(vector.hex, 'hex'));
    if (typeof value === 'number') expect(Object.is(decoded, value)).toBe(true);
    else expect(decoded).toEqual(value);
  });
});
