import { describe, expect, it } from 'vitest';
import { decodeLogicalKey, encodeKeyComponents, joinLogicalKey } from '../../../src/key/logical-key.js';
import { MAX_ROW_KEY_BYTES, assertRowKeySize } from '../../../src/key/physical-key.js';
import { prefixEnd } from '../../../src/key/key-ranges.js';
import { KeyEncodingError, ValidationError } from '../../../src/errors/errors.js';
import { keySchema } from '../../support/key-schema.js';

const reading = keySchema('Reading', [
  { property: 'sensorId', options: { type: 'string' } },
  { property: 'ts', options: { type: 'timestamp' } },
]);
const reverse = keySchema('Reading', [
  { property: 'sensorId', options: { type: 'string' } },
  { property: 'ts', options: { type: 'timestamp', format: 'epoch-s', descending: true } },
]);
const event = keySchema('Event', [
  { literal: 'event' },
  { property: 'userId', options: { type: 'string' } },
  { literal: 'v1' },
  { property: 'ts', options: { type: 'timestamp', format: 'epoch-ms' } },
]);
const at = new Date('2023-05-01T12:00:00.000Z');
const full = (schema: typeof reading, values: Record<string, unknown>) =>
  joinLogicalKey(schema.key.separator, encodeKeyComponents(schema, values, 'full'), true);

describe('encodeKeyComponents / joinLogicalKey', () => {
  it('encodes the seed keys', () => {
    expect(full(reading, { sensorId: 'sensor123', ts: at })).toBe('sensor123#2023-05-01T12:00:00.000Z');
    expect(full(reverse, { sensorId: 'sensor123', ts: at })).toBe('sensor123#8317057599');
  });

  it('includes literals and escapes string components', () => {
    expect(encodeKeyComponents(event, { userId: 'u#1', ts: at }, 'full')).toEqual([
      'event',
      'u%231',
      'v1',
      '1682942400000',
    ]);
  });

  it('stops a prefix at the first missing property, keeping the literals before it', () => {
    expect(encodeKeyComponents(event, {}, 'prefix')).toEqual(['event']);
    expect(encodeKeyComponents(event, { userId: 'u1' }, 'prefix')).toEqual(['event', 'u1', 'v1']);
    expect(encodeKeyComponents(event, { userId: 'u1', ts: undefined }, 'prefix')).toEqual(['event', 'u1', 'v1']);
    expect(encodeKeyComponents(reading, {}, 'prefix')).toEqual([]);
    expect(joinLogicalKey('#', ['event', 'u1', 'v1'], false)).toBe('event#u1#v1#');
    expect(joinLogicalKey('#', [], false)).toBe('');
    expect(joinLogicalKey('#', ['a', 'b'], true)).toBe('a#b');
  });

  it('ignores properties that are not key parts', () => {
    expect(encodeKeyComponents(reading, { sensorId: 's', ts: at, temperature: 21.5 }, 'full')).toEqual([
      's',
      '2023-05-01T12:00:00.000Z',
    ]);
  });

  it('rejects a missing part of a full key with ValidationError', () => {
    expect(() => encodeKeyComponents(event, { userId: 'u1' }, 'full')).toThrow(ValidationError);
    expect(() => encodeKeyComponents(event, { userId: 'u1' }, 'full')).toThrow(
      /^Event: key is missing "ts"\. Fix: pass every key part/,
    );
  });

  it('rejects a prefix that skips a key part, naming both properties', () => {
    expect(() => encodeKeyComponents(event, { ts: at }, 'prefix')).toThrow(ValidationError);
    expect(() => encodeKeyComponents(event, { ts: at }, 'prefix')).toThrow(
      /^Event: key prefix gives "ts" but not "userId".*Fix: also pass "userId"/,
    );
  });

  it('lets the codec reject bad values with KeyEncodingError', () => {
    expect(() => encodeKeyComponents(reading, { sensorId: '', ts: at }, 'full')).toThrow(/^Reading\.sensorId: "" /);
    expect(() => encodeKeyComponents(reading, { sensorId: null, ts: at }, 'prefix')).toThrow(KeyEncodingError);
  });
});

describe('decodeLogicalKey', () => {
  it('decodes the seed keys', () => {
    expect(decodeLogicalKey(reading, 'sensor123#2023-05-01T12:00:00.000Z')).toEqual({ sensorId: 'sensor123', ts: at });
    expect(decodeLogicalKey(reverse, 'sensor123#8317057599')).toEqual({ sensorId: 'sensor123', ts: at });
    expect(decodeLogicalKey(event, 'event#u%231#v1#1682942400000')).toEqual({ userId: 'u#1', ts: at });
  });

  it.each([
    ['too few components', 'sensor123', /^Reading: row key "sensor123" has 1 components, expected 2/],
    ['too many components', 's#2023-05-01T12:00:00.000Z#x', /has 3 components, expected 2.*Fix: /],
  ])('rejects %s with ValidationError', (_name, text, message) => {
    expect(() => decodeLogicalKey(reading, text)).toThrow(ValidationError);
    expect(() => decodeLogicalKey(reading, text)).toThrow(message);
  });

  it('rejects a wrong literal with ValidationError', () => {
    expect(() => decodeLogicalKey(event, 'other#u1#v1#1682942400000')).toThrow(ValidationError);
    expect(() => decodeLogicalKey(event, 'event#u1#v2#1682942400000')).toThrow(
      /"v2" at position 2, expected the literal "v1"/,
    );
  });

  it('rejects a bad component with KeyEncodingError carrying the key text', () => {
    expect(() => decodeLogicalKey(reading, 's1#yesterday')).toThrow(KeyEncodingError);
    expect(() => decodeLogicalKey(reading, 's1#yesterday')).toThrow(
      /^Reading\.ts: "s1#yesterday" is not a valid row key: component 1 "yesterday" .*Fix: /,
    );
    expect(() => decodeLogicalKey(reading, 'a%2#2023-05-01T12:00:00.000Z')).toThrow(/^Reading\.sensorId: /);
  });
});

describe('assertRowKeySize', () => {
  it('accepts keys up to 4 KiB and rejects longer ones', () => {
    expect(MAX_ROW_KEY_BYTES).toBe(4096);
    expect(() => assertRowKeySize('Reading', Buffer.alloc(4096, 0x61))).not.toThrow();
    expect(() => assertRowKeySize('Reading', Buffer.alloc(4097, 0x61))).toThrow(KeyEncodingError);
    expect(() => assertRowKeySize('Reading', Buffer.alloc(4097, 0x61))).toThrow(
      /^Reading\.\(row key\): .* is 4097 bytes, over Bigtable's row key limit of 4096 bytes\. Fix: shorten/,
    );
  });
});

describe('prefixEnd', () => {
  it.each([
    ['a#', '6124'],
    ['é', 'c3aa'],
    ['', undefined],
  ])('of %j is %s', (prefix, end) => {
    expect(prefixEnd(Buffer.from(prefix, 'utf8'))?.toString('hex')).toBe(end);
  });

  it.each([
    ['61ff', '62'],
    ['61fe', '61ff'],
    ['00ffff', '01'],
    ['ffff', undefined],
  ])('of bytes %s is %s', (prefix, end) => {
    expect(prefixEnd(Buffer.from(prefix, 'hex'))?.toString('hex')).toBe(end);
  });

  it('does not modify its input', () => {
    const prefix = Buffer.from('a#');
    prefixEnd(prefix);
    expect(prefix.toString()).toBe('a#');
  });
});
