import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Column,
  Entity,
  Family,
  KeyPart,
  range,
  Salt,
  ValidationError,
  type BigtableMapper,
  type RangeCondition,
  type Repository,
  type ScanQuery,
} from '../../../src/index.js';
import { closeMapper, openMapper } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';
import { propertyRuns } from '../../support/property-runs.js';

/** Characters around the separator '#' and the escape '%', plus two letters. */
const ALPHABET = ['\u0000', ' ', '!', '#', '%', '$', 'a', 'b'];
/** Every name of one or two characters: 72 values. */
const NAMES = [...ALPHABET, ...ALPHABET.flatMap((x) => ALPHABET.map((y) => x + y))];

const tables = {
  inner: uniqueTableId('exact-inner'),
  last: uniqueTableId('exact-last'),
  salted: uniqueTableId('exact-salted'),
};

/** The string is the first of two key parts: the separator follows it in every key. */
@Entity({ table: tables.inner })
@Family('d')
class Tagged {
  @KeyPart(0, { type: 'string' }) name!: string;
  @KeyPart(1, { type: 'uint', width: 2 }) n!: number;
  @Column({ family: 'd', type: 'string' }) v?: string;
}

/** The string is the last key part. */
@Entity({ table: tables.last })
@KeyPart(0, { literal: 'w' })
@Family('d')
class Word {
  @KeyPart(1, { type: 'string' }) name!: string;
  @Column({ family: 'd', type: 'string' }) v?: string;
}

/** Salted on the whole key: a range scan merges three buckets. */
@Entity({ table: tables.salted })
@Salt({ buckets: 3 })
@Family('d')
class SaltedTagged {
  @KeyPart(0, { type: 'string' }) name!: string;
  @KeyPart(1, { type: 'uint', width: 2 }) n!: number;
  @Column({ family: 'd', type: 'string' }) v?: string;
}

let mapper: BigtableMapper;
let tagged: Repository<Tagged>;
let words: Repository<Word>;
let salted: Repository<SaltedTagged>;

beforeAll(async () => {
  mapper = openMapper([Tagged, Word, SaltedTagged]);
  await mapper.sync();
  tagged = mapper.getRepository(Tagged);
  words = mapper.getRepository(Word);
  salted = mapper.getRepository(SaltedTagged);
  await tagged.saveMany(
    NAMES.flatMap((name) => [0, 1].map((n) => Object.assign(new Tagged(), { name, n, v: `${name}/${n}` }))),
  );
  await salted.saveMany(
    NAMES.flatMap((name) => [0, 1].map((n) => Object.assign(new SaltedTagged(), { name, n, v: `${name}/${n}` }))),
  );
  await words.saveMany(NAMES.map((name) => Object.assign(new Word(), { name, v: name })));
});

afterAll(() => closeMapper(mapper, Object.values(tables)));

const byCodePoint = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

function inside(name: string, bounds: RangeCondition<string>): boolean {
  if (bounds.gte !== undefined && byCodePoint(name, bounds.gte) < 0) return false;
  if (bounds.gt !== undefined && byCodePoint(name, bounds.gt) <= 0) return false;
  if (bounds.lte !== undefined && byCodePoint(name, bounds.lte) > 0) return false;
  if (bounds.lt !== undefined && byCodePoint(name, bounds.lt) >= 0) return false;
  return true;
}

function isInverted(bounds: RangeCondition<string>): boolean {
  const lower = bounds.gte ?? bounds.gt;
  const upper = bounds.lte ?? bounds.lt;
  if (lower === undefined || upper === undefined) return false;
  const order = byCodePoint(lower, upper);
  return order > 0 || (order === 0 && (bounds.gt !== undefined || bounds.lt !== undefined));
}

const all = <T extends object>(repo: Repository<T>, query: ScanQuery<T>): Promise<T[]> =>
  lastValueFrom(repo.scan(query).pipe(toArray()));

const bound = fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 3 });
const bounds: fc.Arbitrary<RangeCondition<string>> = fc
  .record({
    lower: fc.option(fc.record({ op: fc.constantFrom('gt', 'gte'), value: bound })),
    upper: fc.option(fc.record({ op: fc.constantFrom('lt', 'lte'), value: bound })),
  })
  .filter(({ lower, upper }) => lower !== null || upper !== null)
  .map(({ lower, upper }) => ({
    ...(lower === null ? {} : { [lower.op]: lower.value }),
    ...(upper === null ? {} : { [upper.op]: upper.value }),
  }));

describe('string ranges return exactly the logical range, whatever characters the values hold', () => {
  it("{ gte: 'a', lte: 'a' } returns only 'a' (not 'a!', 'a ' or 'a\\u0000')", async () => {
    const rows = await all(tagged, { where: { name: range({ gte: 'a', lte: 'a' }) } });
    expect(rows.map((r) => `${r.name}/${r.n}`)).toEqual(['a/0', 'a/1']);
    expect(
      (await all(words, { where: { name: range({ gt: 'a', lt: 'b' }) } })).map((r) => r.name).sort(byCodePoint),
    ).toEqual(['a\u0000', 'a ', 'a!', 'a#', 'a$', 'a%', 'aa', 'ab']);
  });

  it('property: inner and last string key parts, ordered and unordered, salted, limited and paged', async () => {
    await fc.assert(
      fc.asyncProperty(bounds, fc.integer({ min: 1, max: 5 }), async (condition, limit) => {
        if (isInverted(condition)) {
          expect(() => tagged.planScan({ where: { name: range(condition) } })).toThrow(ValidationError);
          return;
        }
        const expectedNames = NAMES.filter((name) => inside(name, condition)).sort(byCodePoint);
        const where = { name: range(condition) };

        const inner = await all(tagged, { where });
        expect(inner.map((r) => r.name).sort(byCodePoint)).toEqual(expectedNames.flatMap((name) => [name, name]));
        expect(inner.every((r) => r.v === `${r.name}/${r.n}`)).toBe(true);
        const keys = inner.map((r) => tagged.compileSave(r).rowKey);
        for (let i = 1; i < keys.length; i++) expect(Buffer.compare(keys[i - 1]!, keys[i]!)).toBeLessThan(0);

        const last = await all(words, { where });
        expect(last.map((r) => r.name).sort(byCodePoint)).toEqual(expectedNames);

        const limited = await all(tagged, { where, limit });
        expect(limited.map((r) => `${r.name}/${r.n}`)).toEqual(inner.slice(0, limit).map((r) => `${r.name}/${r.n}`));

        const merged = await all(salted, { where });
        expect(merged.map((r) => `${r.name}/${r.n}`)).toEqual(inner.map((r) => `${r.name}/${r.n}`));
        const mergedLimited = await all(salted, { where, limit });
        expect(mergedLimited).toHaveLength(Math.min(limit, inner.length));
        const unordered = await all(salted, { where, order: 'none', limit });
        expect(unordered).toHaveLength(Math.min(limit, inner.length));
        expect(unordered.every((r) => inside(r.name, condition))).toBe(true);

        const paged: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await salted.page({ where, limit: 7, cursor, order: 'none' });
          paged.push(...page.items.map((r) => `${r.name}/${r.n}`));
          cursor = page.cursor;
        } while (cursor !== undefined);
        expect(paged.sort()).toEqual(inner.map((r) => `${r.name}/${r.n}`).sort());
      }),
      { numRuns: propertyRuns(40) },
    );
  }, 120_000);
});
