import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createKeyCodec } from '../../../src/codec/key-codecs.js';
import type { KeyPartOptions } from '../../../src/model/declarations.js';

interface KeyVector {
  type: KeyPartOptions['type'];
  options: KeyPartOptions;
  value: number | string | boolean;
  encoded: string;
  separator?: string;
}

const golden = JSON.parse(readFileSync(new URL('../../golden/key-components.json', import.meta.url), 'utf8')) as {
  vectors: KeyVector[];
};

function toValue(v: KeyVector): unknown {
  if (v.type === 'bigint') return BigInt(v.value);
  if (v.type === 'timestamp') return new Date(v.value as string);
  if (v.type === 'bytes') return Buffer.from(v.value as string, 'base64');
  return v.value;
}

describe('key component golden vectors', () => {
  it('covers every key type, width, descending and format', () => {
    const seen = new Set(
      golden.vectors.map(
        (v) => `${v.type}/${v.options.format ?? ''}/${v.options.descending === true}/${v.options.width !== undefined}`,
      ),
    );
    for (const combo of [
      'string//false/false',
      'uint//false/false',
      'uint//false/true',
      'uint//true/true',
      'int//false/false',
      'int//true/false',
      'bigint//false/false',
      'bigint//true/false',
      'timestamp//false/false',
      'timestamp/epoch-ms/true/false',
      'timestamp/epoch-s/true/false',
      'timestamp/epoch-ms/false/true',
      'bytes//false/false',
      'float//false/false',
      'float//true/false',
      'boolean//false/false',
      'boolean//true/false',
    ]) {
      expect(seen).toContain(combo);
    }
  });

  it.each(
    golden.vectors.map(
      (v) => [`${JSON.stringify(v.options)} ${String(v.value)} (sep ${v.separator ?? '#'})`, v] as const,
    ),
  )('%s', (_name, vector) => {
    const codec = createKeyCodec('Golden', 'part', vector.options, vector.separator ?? '#');
    const value = toValue(vector);
    expect(codec.encode(value)).toBe(vector.encoded);
    // -0 is stored as 0, so it reads back as 0
    expect(codec.decode(vector.encoded)).toEqual(Object.is(value, -0) ? 0 : value);
  });

  it('includes the seed examples', () => {
    const epochS = createKeyCodec('Reading', 'ts', { type: 'timestamp', format: 'epoch-s', descending: true }, '#');
    expect(epochS.encode(new Date(1682942400 * 1000))).toBe(String(9999999999 - 1682942400));
    expect(String(9999999999 - 1682942400)).toBe('8317057599');
    const iso = createKeyCodec('Reading', 'ts', { type: 'timestamp' }, '#');
    expect(iso.encode(new Date(Date.UTC(2023, 4, 1, 12)))).toBe('2023-05-01T12:00:00.000Z');
  });
});
