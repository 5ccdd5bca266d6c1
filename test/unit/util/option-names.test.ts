import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors/index.js';
import { checkOptionNames, closestName } from '../../../src/util/option-names.js';

const SCAN = ['where', 'limit', 'order', 'concurrency', 'cursor', 'select', 'versions', 'signal', 'timeoutMs'];

function thrown(run: () => void): ValidationError {
  try {
    run();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('closestName', () => {
  it('suggests the name within two edits, transpositions counting as one', () => {
    expect(closestName('limt', SCAN)).toBe('limit');
    expect(closestName('lmiit', SCAN)).toBe('limit');
    expect(closestName('slect', SCAN)).toBe('select');
    expect(closestName('timeout', SCAN)).toBe('timeoutMs');
    expect(closestName('Limit', SCAN)).toBe('limit');
    expect(closestName('ordre', SCAN)).toBe('order');
  });

  it('suggests nothing when no name is close', () => {
    expect(closestName('pageSize', SCAN)).toBeUndefined();
    expect(closestName('x', ['at', 'by'])).toBeUndefined();
    expect(closestName('', SCAN)).toBeUndefined();
    expect(closestName('limit'.repeat(10_000), SCAN)).toBeUndefined();
  });

  it('prefers the closest name, then the first listed', () => {
    expect(closestName('batchSiz', ['batchBytes', 'batchSize'])).toBe('batchSize');
    expect(closestName('ab', ['ax', 'ay'])).toBe('ax');
  });

  it('is symmetric in its distance: a name one edit from a candidate always finds it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCAN), fc.nat(), fc.constantFrom('a', 'z', '_'), (name, at, ch) => {
        const i = at % name.length;
        const edited = name.slice(0, i) + ch + name.slice(i + 1);
        expect(closestName(edited, SCAN)).toBeDefined();
      }),
    );
  });
});

describe('checkOptionNames', () => {
  it('accepts known names and non-objects (checked elsewhere)', () => {
    expect(() => checkOptionNames('Reading.iterate', { limit: 3, where: {} }, SCAN)).not.toThrow();
    expect(() => checkOptionNames('Reading.iterate', undefined, SCAN)).not.toThrow();
    expect(() => checkOptionNames('Reading.iterate', null, SCAN)).not.toThrow();
  });

  it('names the unknown option, the closest valid one and the fix', () => {
    const err = thrown(() => checkOptionNames('Reading.iterate', { limt: 3 }, SCAN));
    expect(err.message).toBe(
      'Reading.iterate: unknown option "limt". Did you mean "limit"? Fix: rename it to "limit" (options: where, limit, order, concurrency, cursor, select, versions, signal, timeoutMs)',
    );
    expect(err.details).toMatchObject({ operation: 'Reading.iterate', option: 'limt', suggestion: 'limit' });
  });

  it('says to remove an option with no close name', () => {
    const err = thrown(() => checkOptionNames('Reading.save', { retries: 3 }, ['signal', 'timeoutMs']));
    expect(err.message).toBe('Reading.save: unknown option "retries". Fix: remove it (options: signal, timeoutMs)');
  });

  it('reads own keys only, never calls getters, and handles hostile keys', () => {
    const inherited = Object.create({ limt: 3 }) as object;
    expect(() => checkOptionNames('Reading.iterate', inherited, SCAN)).not.toThrow();
    const getter = {
      get limit(): number {
        throw new Error('getter called');
      },
    };
    expect(() => checkOptionNames('Reading.iterate', getter, SCAN)).not.toThrow();
    const proto = JSON.parse('{"__proto__":{"limit":1}}') as object;
    expect(thrown(() => checkOptionNames('Reading.iterate', proto, SCAN)).message).toContain('"__proto__"');
    const constructor = JSON.parse('{"constructor":1}') as object;
    expect(thrown(() => checkOptionNames('Reading.iterate', constructor, SCAN)).message).toContain('"constructor"');
    const long = thrown(() => checkOptionNames('Reading.iterate', { ['x'.repeat(100_000)]: 1 }, SCAN));
    expect(long.message.length).toBeLessThan(500);
    class Options {
      limit = 3;
    }
    expect(() => checkOptionNames('Reading.iterate', new Options(), SCAN)).not.toThrow();
  });

  it('rejects symbol keys too', () => {
    const err = thrown(() => checkOptionNames('Reading.iterate', { [Symbol('limit')]: 3 }, SCAN));
    expect(err.message).toContain('Symbol(limit)');
  });
});
