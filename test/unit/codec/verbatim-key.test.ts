import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Entity, KeyPart, Salt } from '../../../src/decorators/index.js';
import { KeyEncodingError, ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { decodeRowKey, encodeRowKey } from '../../../src/key/physical-key.js';
import { planKeyRange } from '../../../src/key/key-ranges.js';
import type { LogicalKeyRange } from '../../../src/model/key-range.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';
import { javaHashCode, seed003SaltedKey } from '../../../examples/hot-users/seed-003-key.js';

@Entity({ table: 'adopted', separator: '-' })
class Adopted {
  @KeyPart(0, { type: 'string', verbatim: true, width: 6 }) userId!: string;
  @KeyPart(1, { type: 'string', verbatim: true, charset: 'word' }) site!: string;
  @KeyPart(2, { type: 'string', verbatim: true }) tail!: string;
}

function inRange(key: Buffer, range: LogicalKeyRange): boolean {
  const fromStart = Buffer.compare(key, range.start.key);
  if (fromStart < 0 || (fromStart === 0 && !range.start.inclusive)) return false;
  if (range.end === undefined) return true;
  const toEnd = Buffer.compare(key, range.end.key);
  return toEnd < 0 || (toEnd === 0 && range.end.inclusive);
}

const codePointOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('verbatim key parts: compile rules', () => {
  it('rejects a verbatim part that is neither last, fixed-width nor limited to a charset', () => {
    expectMetadataError(
      () => {
        @Entity({ table: 't' })
        class Loose {
          @KeyPart(0, { type: 'string', verbatim: true }) userId!: string;
          @KeyPart(1, { type: 'string' }) site!: string;
        }
        compileEntity(Loose);
      },
      'Loose.userId',
      'not the last key part',
      'give it a width',
      "charset: 'alnum'",
    );
  });

  it('rejects a charset that holds the separator', () => {
    expectMetadataError(
      () => {
        @Entity({ table: 't', separator: '_' })
        class Underscore {
          @KeyPart(0, { type: 'string', verbatim: true, charset: 'word' }) userId!: string;
          @KeyPart(1, { type: 'string' }) site!: string;
        }
        compileEntity(Underscore);
      },
      'Underscore.userId',
      "charset 'word' holds the key separator",
    );
  });

  it('rejects charset or width without verbatim, verbatim on numbers, bad widths and ordered-code keys', () => {
    const compile =
      (options: object, keyFormat: 'text' | 'ordered-code' = 'text') =>
      () => {
        @Entity({ table: 't', keyFormat })
        class Bad {
          @KeyPart(0, options as never) id!: string;
        }
        compileEntity(Bad);
      };
    expectMetadataError(compile({ type: 'string', charset: 'alnum' }), 'Bad.id', 'add verbatim: true');
    expectMetadataError(compile({ type: 'string', width: 4 }), 'Bad.id', 'add verbatim: true');
    expectMetadataError(compile({ type: 'uint', verbatim: true }), 'Bad.id', 'only to string key parts');
    expectMetadataError(compile({ type: 'string', verbatim: 'yes' }), 'Bad.id', 'verbatim must be true or false');
    expectMetadataError(compile({ type: 'string', verbatim: true, width: 0 }), 'Bad.id', 'width 0');
    expectMetadataError(compile({ type: 'string', verbatim: true, charset: 'latin' }), 'Bad.id', 'unknown charset');
    expectMetadataError(compile({ type: 'string', verbatim: true }, 'ordered-code'), 'Bad.id', "keyFormat: 'text'");
  });

  it('accepts a verbatim last part, a fixed-width one and a charset one', () => {
    const schema = compileEntity(Adopted);
    expect(schema.key.components.map((c) => (c.kind === 'property' ? c.codec.verbatim : undefined))).toEqual([
      { width: 6, charset: undefined },
      { width: undefined, charset: 'word' },
      { width: undefined, charset: undefined },
    ]);
  });
});

describe('verbatim key parts: encode and decode', () => {
  const schema = compileEntity(Adopted);

  it('writes the bytes as they are, separators, % and empty parts included', () => {
    const values = { userId: 'ab-c%d', site: 'web_1', tail: '' };
    const { text } = encodeRowKey(schema, values);
    expect(text).toBe('ab-c%d-web_1-');
    expect(decodeRowKey(schema, text)).toEqual(values);
    expect(decodeRowKey(schema, 'a-b-c--x-y-%--z')).toEqual({ userId: 'a-b-c-', site: 'x', tail: 'y-%--z' });
  });

  it('checks width and charset on encode and on decode', () => {
    expect(() => encodeRowKey(schema, { userId: 'short', site: 'web', tail: 'x' })).toThrow(KeyEncodingError);
    expect(() => encodeRowKey(schema, { userId: 'abcdef', site: 'w-b', tail: 'x' })).toThrow(/charset 'word'/);
    expect(() => decodeRowKey(schema, 'abcde-web-x')).toThrow(ValidationError);
    expect(() => decodeRowKey(schema, 'abcdef-w.b-x')).toThrow(KeyEncodingError);
  });

  it('round-trips any values, with the separator and % inside (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '-', '%', 'é', '_', '0', '\u{1F600}') });
    fc.assert(
      fc.property(
        text.filter((s) => s.length === 6),
        fc.stringMatching(/^[A-Za-z0-9_]*$/),
        text,
        (userId, site, tail) => {
          const values = { userId, site, tail };
          const { key, text: keyText } = encodeRowKey(schema, values);
          expect(keyText).toBe(`${userId}-${site}-${tail}`);
          expect(decodeRowKey(schema, key)).toEqual(values);
        },
      ),
    );
  });
});

describe('verbatim key parts: scans', () => {
  const schema = compileEntity(Adopted);
  const key = (userId: string, site: string, tail: string): Buffer => encodeRowKey(schema, { userId, site, tail }).key;

  it("where on the whole last part is that one row: 'a' matches neither 'ab' nor 'a-b'", () => {
    const { range, exact } = planKeyRange(schema, { userId: 'user-1', site: 'web', tail: 'a' });
    expect(exact).toBe(true);
    expect(inRange(key('user-1', 'web', 'a'), range)).toBe(true);
    expect(inRange(key('user-1', 'web', 'ab'), range)).toBe(false);
    expect(inRange(key('user-1', 'web', 'a-b'), range)).toBe(false);
  });

  it('a prefix through the fixed-width part covers exactly that value, whatever its separators', () => {
    const { range } = planKeyRange(schema, { userId: 'ab-cd-' });
    expect(inRange(key('ab-cd-', 'x', 'y'), range)).toBe(true);
    expect(inRange(key('ab-cd-', 'x', ''), range)).toBe(true);
    expect(inRange(key('ab-cde', 'x', 'y'), range)).toBe(false);
    expect(inRange(key('ab-cd_', 'x', 'y'), range)).toBe(false);
  });

  const units = fc.constantFrom('a', 'b', '-', '%', '.', '~', 'é', '\u{1F600}', '0');
  const bounded = (
    values: fc.Arbitrary<string>,
    fixed: Record<string, string>,
    property: 'userId' | 'site' | 'tail',
    row: (v: string) => Buffer,
  ) =>
    fc.property(
      fc.array(values, { minLength: 1, maxLength: 12 }),
      values,
      values,
      fc.constantFrom('gt', 'gte'),
      fc.constantFrom('lt', 'lte'),
      (stored, low, high, lowOp, highOp) => {
        const [lo, hi] = codePointOrder(low, high) <= 0 ? [low, high] : [high, low];
        if (lo === hi && (lowOp === 'gt' || highOp === 'lt')) return;
        const { range, exact } = planKeyRange(schema, fixed, { property, [lowOp]: lo, [highOp]: hi });
        for (const v of stored) {
          const above = lowOp === 'gt' ? codePointOrder(v, lo) > 0 : codePointOrder(v, lo) >= 0;
          const below = highOp === 'lt' ? codePointOrder(v, hi) < 0 : codePointOrder(v, hi) <= 0;
          if (exact) expect(inRange(row(v), range), `${v} in ${lowOp} ${lo} ${highOp} ${hi}`).toBe(above && below);
          else if (above && below) expect(inRange(row(v), range)).toBe(true);
        }
      },
    );

  it('a range on the last part is exact in code point order (property)', () => {
    const tails = fc.string({ unit: units, maxLength: 4 });
    fc.assert(bounded(tails, { userId: 'user-1', site: 'web' }, 'tail', (v) => key('user-1', 'web', v)));
  });

  it('a range on the fixed-width part is exact in code point order, the separator inside or not (property)', () => {
    const ids = fc.string({ unit: units, minLength: 3, maxLength: 6 }).filter((v) => v.length === 6);
    fc.assert(bounded(ids, {}, 'userId', (v) => key(v, 'x', 'y')));
  });

  it('a range on the charset part holds every row in range (widened and filtered where order differs)', () => {
    const sites = fc.stringMatching(/^[ab_0]{0,3}$/);
    fc.assert(bounded(sites, { userId: 'user-1' }, 'site', (v) => key('user-1', v, 'y')));
  });

  it('a charset part whose characters sort around the separator is widened, never exact by mistake', () => {
    // ':' sorts between '9' and 'A', so 'a9:…' sorts before 'a:…' although 'a' < 'a9'.
    @Entity({ table: 'colon', separator: ':' })
    class Colon {
      @KeyPart(0, { type: 'string', verbatim: true, charset: 'alnum' }) code!: string;
      @KeyPart(1, { type: 'string', verbatim: true }) rest!: string;
    }
    const colon = compileEntity(Colon);
    const row = (code: string): Buffer => encodeRowKey(colon, { code, rest: 'x' }).key;
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a9Z]{0,3}$/), { minLength: 1, maxLength: 12 }),
        fc.stringMatching(/^[a9Z]{0,3}$/),
        fc.stringMatching(/^[a9Z]{0,3}$/),
        (stored, low, high) => {
          const [lo, hi] = codePointOrder(low, high) <= 0 ? [low, high] : [high, low];
          const { range, exact } = planKeyRange(colon, {}, { property: 'code', gte: lo, lte: hi });
          for (const v of stored) {
            const inside = codePointOrder(v, lo) >= 0 && codePointOrder(v, hi) <= 0;
            if (exact) expect(inRange(row(v), range)).toBe(inside);
            else if (inside) expect(inRange(row(v), range)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('verbatim key parts: salting as seed 003 does', () => {
  @Entity({ table: 'activity', separator: '-' })
  @Salt({
    buckets: 4,
    on: ['userId', 'site'],
    hash: 'java-string-hashcode-signed',
    format: { width: 1, separator: '-' },
  })
  class Activity {
    @KeyPart(0, { type: 'string', verbatim: true, width: 36 }) userId!: string;
    @KeyPart(1, { type: 'string', verbatim: true, charset: 'alnum' }) site!: string;
    @KeyPart(2, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
  }

  it("hashes the raw 'userId-site' text, as the seed's Java does for an id holding '-'", () => {
    const schema = compileEntity(Activity);
    const ids = [
      '9b2f4c1e-8d3a-4f6b-a1c2-3e4d5f6a7b8c',
      '00000000-0000-0000-0000-000000000001',
      'a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-',
    ];
    const buckets = new Set<number>();
    for (const userId of ids) {
      const at = new Date(1719223200000);
      const rowKey = `${userId}-web-${at.getTime()}`;
      const javaKey = seed003SaltedKey(rowKey, 4);
      const { text } = encodeRowKey(schema, { userId, site: 'web', at });
      expect(text).toBe(javaKey);
      expect(decodeRowKey(schema, javaKey)).toEqual({ userId, site: 'web', at });
      buckets.add(javaHashCode(`${userId}-web`) % 4);
    }
    // The vectors differ in bucket, so a hash of the escaped text could not match them all by chance.
    expect(buckets.size).toBeGreaterThan(1);
  });
});
