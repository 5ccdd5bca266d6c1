import { describe, expect, it } from 'vitest';
import { compileSalt } from '../../../src/metadata/compile-salt.js';
import { parseSaltSegment, saltSegment } from '../../../src/key/salt.js';
import { keyComponents, readRepoFile, saltVectors, type SaltedKeyVector } from './salt-fixtures.js';

function physicalKey(v: SaltedKeyVector): { key: string; bucketSegment: string; salt: ReturnType<typeof compileSalt> } {
  const parts = v.key.split(v.keySeparator);
  const names = parts.map((_, i) => `c${i}`);
  const on = v.hashed === 'whole' ? undefined : names.slice(0, -1);
  const salt = compileSalt(
    'Seed',
    { buckets: v.buckets, hash: v.preset, on, format: { width: v.width, separator: v.separator } },
    keyComponents(...names),
    v.keySeparator,
  );
  const bucketSegment = saltSegment(salt, parts, v.keySeparator);
  return { key: bucketSegment + parts.join(v.keySeparator), bucketSegment, salt };
}

describe('salted keys exactly as the seeds write them', () => {
  it('covers both seed 002 recipes and both seed 003 recipes, with negative and unpadded two-digit buckets', () => {
    const recipes = new Set(saltVectors.saltedKeys.map((k) => k.recipe));
    expect([...recipes].sort()).toEqual(['seed-002-java', 'seed-002-python', 'seed-003-partial', 'seed-003-whole']);
    expect(saltVectors.saltedKeys.some((k) => k.recipe.startsWith('seed-003') && k.salted.startsWith('-'))).toBe(true);
    expect(saltVectors.saltedKeys.some((k) => k.recipe.startsWith('seed-003') && /^\d\d-/.test(k.salted))).toBe(true);
  });

  it.each(saltVectors.saltedKeys.map((v) => [`${v.recipe} n=${v.buckets} ${JSON.stringify(v.key)}`, v] as const))(
    '%s',
    (_label, v) => {
      const { key, bucketSegment, salt } = physicalKey(v);
      expect(Buffer.from(key, 'utf8').equals(Buffer.from(v.salted, 'utf8'))).toBe(true);
      expect(key).toBe(v.salted);
      const parsed = parseSaltSegment(salt, v.salted);
      expect(parsed?.rest).toBe(v.key);
      expect(bucketSegment).toBe(v.salted.slice(0, v.salted.length - v.key.length));
    },
  );
});

describe('docs/salting-vectors.md', () => {
  const doc = readRepoFile('docs/salting-vectors.md');
  const index = new Map(saltVectors.vectors.map((v) => [`${v.preset}|${v.input}|${v.buckets}`, v.bucket]));
  const presets = ['md5', 'md5-int32', 'java-string-hashcode', 'java-string-hashcode-signed'];

  it('publishes only buckets that are in the golden JSON', () => {
    const rows = [...doc.matchAll(/^\| `(".*")` \| (\d+) \| (-?\d+) \| (-?\d+) \| (-?\d+) \| (-?\d+) \|$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const [, literal, n, ...buckets] of rows) {
      const input = JSON.parse(literal as string) as string;
      presets.forEach((preset, i) =>
        expect(Number(buckets[i]), `${preset} ${literal} ${n}`).toBe(index.get(`${preset}|${input}|${n}`)),
      );
    }
  });

  it('publishes only salted keys that are in the golden JSON', () => {
    const rows = [...doc.matchAll(/^\| (seed-\d{3}-[a-z]+) \| (\d+) \| `([^`]*)` \| `([^`]*)` \|/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const [, recipe, n, key, salted] of rows) {
      const match = saltVectors.saltedKeys.find((k) => k.recipe === recipe && k.buckets === Number(n) && k.key === key);
      expect(match?.salted, `${recipe} ${n} ${key}`).toBe(salted);
    }
  });
});
