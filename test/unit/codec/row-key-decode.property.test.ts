import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECODE_FIX } from '../../../src/codec/key-codecs.js';
import { compileSalt } from '../../../src/metadata/compile-salt.js';
import { decodeRowKey } from '../../../src/key/physical-key.js';
import { bucketText } from '../../../src/key/salt.js';
import {
  decodeLogicalKey,
  describeKeyLayout,
  encodeKeyComponents,
  joinLogicalKey,
  type KeySchema,
} from '../../../src/key/logical-key.js';
import { preview } from '../../../src/errors/bigtable-mapper-error.js';
import { KeyEncodingError, ValidationError } from '../../../src/errors/index.js';
import { keySchema, withSalt, type KeyPartSpec } from '../../support/key-schema.js';
import { KEY_COMBOS, type KeyCombo } from './key-codec-arbitraries.js';
import { propertyRuns } from '../../support/property-runs.js';

/** `decodeLogicalKey` as it was before the single-pass version: split, then check and decode each part. */
function referenceDecode(schema: KeySchema, text: string): Record<string, unknown> {
  const { components, separator } = schema.key;
  const parts = text.split(separator);
  const mismatch = (problem: string): ValidationError =>
    new ValidationError(
      `${schema.name}: row key ${preview(text)} ${problem} (key layout ${describeKeyLayout(schema)}). Fix: ${DECODE_FIX}.`,
      {
        entity: schema.name,
        rowKey: text,
      },
    );
  if (parts.length !== components.length)
    throw mismatch(`has ${parts.length} components, expected ${components.length}`);
  const values: Record<string, unknown> = {};
  for (const [index, component] of components.entries()) {
    const part = parts[index] as string;
    if (component.kind === 'literal') {
      if (part !== component.literal)
        throw mismatch(`has ${preview(part)} at position ${index}, expected the literal ${preview(component.literal)}`);
      continue;
    }
    const { property } = component;
    try {
      values[property] = component.codec.decode(part);
    } catch (err) {
      if (!(err instanceof KeyEncodingError)) throw err;
      throw new KeyEncodingError(
        schema.name,
        property,
        text,
        `is not a valid row key: component ${index} ${preview(part)} ${String(err.details.reason)}`,
        DECODE_FIX,
      );
    }
  }
  return values;
}

function outcome(decode: () => Record<string, unknown>): unknown {
  try {
    const values = decode();
    return { values, keys: Object.keys(values) };
  } catch (err) {
    return {
      error: (err as Error).constructor.name,
      message: (err as Error).message,
      details: (err as { details?: unknown }).details,
    };
  }
}

const partArb: fc.Arbitrary<{ spec: (i: number) => KeyPartSpec; combo: KeyCombo | undefined }> = fc.oneof(
  fc.constantFrom('row', 'event', 'a', 'x%y').map((literal) => ({ spec: () => ({ literal }), combo: undefined })),
  fc
    .constantFrom(...KEY_COMBOS)
    .map((combo) => ({ spec: (i: number) => ({ property: `p${i}`, options: combo.options }), combo })),
);

/** A layout (separator, 1–4 parts) and a key text for it: a valid encoding, then maybe damaged. */
const caseArb = fc
  .record({ parts: fc.array(partArb, { minLength: 1, maxLength: 4 }), separator: fc.constantFrom('#', '|', '/') })
  .chain(({ parts, separator: drawn }) => {
    // bytes parts need a separator below the hex digits
    const separator = drawn === '|' && parts.some((p) => p.combo?.options.type === 'bytes') ? '#' : drawn;
    const schema = keySchema(
      'K',
      parts.map((p, i) => p.spec(i)),
      separator,
    );
    const values = fc.tuple(...parts.map((p) => p.combo?.values ?? fc.constant(undefined)));
    const valid = values.map((tuple) => {
      const named = Object.fromEntries(tuple.map((v, i) => [`p${i}`, v]));
      return joinLogicalKey(separator, encodeKeyComponents(schema, named, 'full'), true);
    });
    const damage = fc.oneof(
      fc.constant((text: string) => text),
      fc.constant((text: string) => text + separator),
      fc.constant((text: string) => separator + text),
      fc.constant((text: string) => text.slice(0, text.lastIndexOf(separator) < 0 ? 0 : text.lastIndexOf(separator))),
      fc.constant((text: string) => text.replace(separator, '')),
      fc.constant((text: string) => text.replace(separator, separator + separator)),
      fc
        .nat()
        .map(
          (n) => (text: string) =>
            text.length === 0 ? text : text.slice(0, n % text.length) + 'Z' + text.slice((n % text.length) + 1),
        ),
      fc.tuple(fc.nat(), fc.constantFrom('a', '0', '%', separator)).map(
        ([n, c]) =>
          (text: string) =>
            text.slice(0, n % (text.length + 1)) + c + text.slice(n % (text.length + 1)),
      ),
      fc.string({ unit: fc.constantFrom('a', '0', '9', '%', '#', '|', '/', 'é'), maxLength: 12 }).map((s) => () => s),
    );
    return fc.record({ schema: fc.constant(schema), text: fc.tuple(valid, damage).map(([text, hurt]) => hurt(text)) });
  });

const DIGIT_COMBOS = KEY_COMBOS.filter(
  (c) => c.options.type === 'uint' || c.options.format === 'epoch-ms' || c.options.format === 'epoch-s',
);

/** A layout of literals (some non-ASCII or not well-formed) and digit components, maybe salted, and key bytes for it: a valid encoding, then maybe damaged byte-wise. */
const bytesCaseArb = fc
  .record({
    parts: fc.array(
      fc.oneof(
        fc
          .constantFrom('row', 'é', '', '\ud800', '1')
          .map((literal) => ({ spec: () => ({ literal }) as KeyPartSpec, combo: undefined as KeyCombo | undefined })),
        fc.oneof(fc.constantFrom(...DIGIT_COMBOS), fc.constantFrom(...KEY_COMBOS)).map((combo) => ({
          spec: (i: number): KeyPartSpec => ({ property: `p${i}`, options: combo.options }),
          combo,
        })),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    separator: fc.constantFrom('#', '|'),
    salt: fc.option(
      fc.record({
        buckets: fc.integer({ min: 1, max: 20 }),
        hash: fc.constantFrom('md5', 'java-string-hashcode-signed' as const),
        width: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        separator: fc.option(fc.constantFrom('#', '-', '::', 'é'), { nil: undefined }),
      }),
      { nil: undefined },
    ),
    bucket: fc.nat(),
  })
  .chain(({ parts, separator: drawn, salt: saltOptions, bucket }) => {
    const separator = drawn === '|' && parts.some((p) => p.combo?.options.type === 'bytes') ? '#' : drawn;
    const logical = keySchema(
      'K',
      parts.map((p, i) => p.spec(i)),
      separator,
    );
    const salt =
      saltOptions === undefined || logical.key.properties.length === 0
        ? undefined
        : compileSalt(
            'K',
            {
              buckets: saltOptions.buckets,
              hash: saltOptions.hash,
              format: { width: saltOptions.width, separator: saltOptions.separator },
            },
            logical.key.components,
            separator,
          );
    const schema = withSalt(logical, salt);
    const segment =
      salt === undefined ? '' : bucketText(salt, salt.allBuckets[bucket % salt.allBuckets.length] as number);
    const values = fc.tuple(...parts.map((p) => p.combo?.values ?? fc.constant(undefined)));
    const valid = values.map((tuple) =>
      Buffer.from(
        segment +
          joinLogicalKey(
            separator,
            encodeKeyComponents(schema, Object.fromEntries(tuple.map((v, i) => [`p${i}`, v])), 'full'),
            true,
          ),
        'utf8',
      ),
    );
    const byte = fc.constantFrom(0x23, 0x2d, 0x3a, 0x7c, 0x30, 0x39, 0x41, 0x80, 0xbf, 0xc3, 0xe0, 0xe9, 0xed, 0xff);
    const damage = fc.oneof(
      { weight: 4, arbitrary: fc.constant((key: Buffer) => key) },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.nat(), byte).map(
          ([n, b]) =>
            (key: Buffer) =>
              Buffer.concat([
                key.subarray(0, n % (key.length + 1)),
                Buffer.from([b]),
                key.subarray(n % (key.length + 1)),
              ]),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.nat(), byte).map(
          ([n, b]) =>
            (key: Buffer) =>
              key.length === 0 ? key : Buffer.from(key.map((x, i) => (i === n % key.length ? b : x))),
        ),
      },
      { weight: 1, arbitrary: fc.nat().map((n) => (key: Buffer) => key.subarray(0, n % (key.length + 1))) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 16 }).map((bytes) => () => Buffer.from(bytes)) },
    );
    return fc.record({ schema: fc.constant(schema), key: fc.tuple(valid, damage).map(([key, hurt]) => hurt(key)) });
  });

describe('decodeRowKey of key bytes (byte path for literal and digit layouts, salted or not)', () => {
  it('returns what decoding the UTF-8 text returns, or throws the same error', () => {
    fc.assert(
      fc.property(bytesCaseArb, ({ schema, key }) => {
        const text = key.toString('utf8');
        expect(outcome(() => decodeRowKey(schema, key))).toEqual(outcome(() => decodeRowKey(schema, text)));
        if (schema.key.salt === undefined)
          expect(outcome(() => decodeRowKey(schema, key))).toEqual(outcome(() => referenceDecode(schema, text)));
      }),
      { numRuns: propertyRuns(4000) },
    );
  });

  it('decodes a literal and digits layout from bytes, and leaves everything else to the text', () => {
    const schema = keySchema('K', [{ literal: 'row' }, { property: 'id', options: { type: 'uint', width: 10 } }]);
    expect(decodeRowKey(schema, Buffer.from('row#0000000042'))).toEqual({ id: 42 });
    expect(() => decodeRowKey(schema, Buffer.from('row#00000000x2'))).toThrow(KeyEncodingError);
    expect(() => decodeRowKey(schema, Buffer.from('row#0000000042#'))).toThrow(/has 3 components, expected 2/);
    const surrogate = keySchema('K', [{ literal: '\ud800' }, { property: 'id', options: { type: 'uint', width: 2 } }]);
    expect(() => decodeRowKey(surrogate, Buffer.from('\ud800#42'))).toThrow(/expected the literal/);
    const salted = withSalt(
      schema,
      compileSalt('K', { buckets: 4, format: { separator: 'é' } }, schema.key.components, '#'),
    );
    expect(decodeRowKey(salted, Buffer.from('01érow#0000000042'))).toEqual({ id: 42 });
    expect(() =>
      decodeRowKey(salted, Buffer.concat([Buffer.from('01'), Buffer.from([0xe9]), Buffer.from('row#0000000042')])),
    ).toThrow(/does not start with a salt segment/);
    expect(() => decodeRowKey(salted, Buffer.from('1érow#0000000042'))).toThrow(/does not start with a salt segment/);
  });
});

describe('decodeLogicalKey (single pass)', () => {
  it('returns what the split-based decoder returns, or throws the same error', () => {
    fc.assert(
      fc.property(caseArb, ({ schema, text }) => {
        expect(outcome(() => decodeLogicalKey(schema, text))).toEqual(outcome(() => referenceDecode(schema, text)));
      }),
      { numRuns: propertyRuns(4000) },
    );
  });

  it('names the layout mismatch before a bad component, as the split-based decoder does', () => {
    const schema = keySchema('K', [{ literal: 'row' }, { property: 'id', options: { type: 'uint', width: 4 } }]);
    expect(outcome(() => decodeLogicalKey(schema, 'row#12x4#extra'))).toEqual(
      outcome(() => referenceDecode(schema, 'row#12x4#extra')),
    );
    expect(() => decodeLogicalKey(schema, 'row#12x4#extra')).toThrow(/has 3 components, expected 2/);
    expect(() => decodeLogicalKey(schema, 'row#12x4')).toThrow(KeyEncodingError);
    expect(() => decodeLogicalKey(schema, 'rot#1234')).toThrow(/expected the literal "row"/);
    expect(decodeLogicalKey(schema, 'row#0042')).toEqual({ id: 42 });
  });
});
