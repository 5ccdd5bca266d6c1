import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors/errors.js';
import { decodeCursor, encodeCursor, sealCursor } from '../../../src/scan/cursor.js';
import type { CursorState } from '../../../src/scan/cursor.js';

const key = fc.uint8Array({ maxLength: 48 }).map((bytes) => Buffer.from(bytes));
const scope = fc.option(fc.string({ maxLength: 20 }), { nil: undefined });

const state: fc.Arbitrary<CursorState> = fc.oneof(
  fc.record({ kind: fc.constant('ordered' as const), lastKey: key, scope }),
  fc.record({
    kind: fc.constant('unordered' as const),
    sources: fc.array(fc.record({ lastKey: fc.option(key, { nil: undefined }), finished: fc.boolean() }), {
      maxLength: 16,
    }),
    scope,
  }),
);

const withoutUndefinedScope = (s: CursorState): CursorState => {
  if (s.scope !== undefined) return s;
  const { scope: _dropped, ...rest } = s;
  return rest;
};

const BASE64URL_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('cursor', () => {
  it('round-trips every state, keys as Buffers', () => {
    fc.assert(
      fc.property(state, (s) => {
        const text = encodeCursor(s);
        expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
        const decoded = decodeCursor(text);
        expect(decoded).toEqual(withoutUndefinedScope(s));
        if (decoded.kind === 'ordered') expect(Buffer.isBuffer(decoded.lastKey)).toBe(true);
      }),
    );
  });

  it('rejects any single-character edit with a ValidationError', () => {
    fc.assert(
      fc.property(state, fc.nat(), fc.constantFrom(...BASE64URL_CHARS), (s, at, replacement) => {
        const text = encodeCursor(s);
        const index = at % text.length;
        fc.pre(text[index] !== replacement);
        const edited = text.slice(0, index) + replacement + text.slice(index + 1);
        expect(() => decodeCursor(edited)).toThrow(ValidationError);
      }),
    );
  });

  it('rejects truncated cursors', () => {
    const text = encodeCursor({ kind: 'ordered', lastKey: Buffer.from('sensor-1#2024-05-01') });
    for (const cut of [1, 2, 5, 10, text.length - 1])
      expect(() => decodeCursor(text.slice(0, cut))).toThrow(ValidationError);
  });

  it('rejects garbage with a message that says how to fix it', () => {
    for (const garbage of [
      '',
      'not a cursor!',
      '%%%',
      'eyJ2IjoxfQ',
      Buffer.from('[1,2]').toString('base64url'),
      'abc=',
    ]) {
      expect(() => decodeCursor(garbage)).toThrow(ValidationError);
    }
    expect(() => decodeCursor('not a cursor!')).toThrow(
      /Invalid scan cursor: .*Fix: pass back the exact cursor string/,
    );
    expect(() => decodeCursor(42 as unknown as string)).toThrow(/expected a non-empty string/);
  });

  it('rejects random strings', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(() => decodeCursor(text)).toThrow(ValidationError);
      }),
    );
  });

  it('rejects another format version, naming both versions', () => {
    const envelope = JSON.parse(
      Buffer.from(encodeCursor({ kind: 'ordered', lastKey: Buffer.from('k') }), 'base64url').toString('utf8'),
    );
    const v2 = Buffer.from(JSON.stringify({ ...envelope, v: 2 })).toString('base64url');
    expect(() => decodeCursor(v2)).toThrow(/format version 2, and this version of bigtable-mapper reads version 1/);
  });

  it('rejects a well-sealed cursor whose payload has the wrong shape', () => {
    const payloads: unknown[] = [
      null,
      [1],
      { k: 'x' },
      { k: 'o' },
      { k: 'o', key: 'not base64!' },
      { k: 'o', key: 'AQ' },
      { k: 'o', key: 'AQI=', extra: 1 },
      { k: 'o', key: 'AQI=', s: 5 },
      { k: 'u', src: 'AQI=' },
      { k: 'u', src: [['AQI=']] },
      { k: 'u', src: [['AQI=', 2]] },
      { k: 'u', src: [[7, 0]] },
    ];
    for (const payload of payloads)
      expect(() => decodeCursor(sealCursor(payload)), JSON.stringify(payload)).toThrow(ValidationError);
  });

  it('keeps an unordered position per source: last key, none yet, finished', () => {
    const s: CursorState = {
      kind: 'unordered',
      sources: [
        { lastKey: Buffer.from([0x03, 0xff, 0x00]), finished: false },
        { lastKey: undefined, finished: false },
        { lastKey: undefined, finished: true },
      ],
      scope: 'readings:sensor-1',
    };
    expect(decodeCursor(encodeCursor(s))).toEqual(s);
  });
});
