import { describe, expect, it } from 'vitest';
import { uniqueTableId } from '../../../src/testing/index.js';

const VALID = /^[_a-zA-Z0-9][-_.a-zA-Z0-9]*$/;

describe('uniqueTableId', () => {
  it('starts with the prefix and is a valid table id', () => {
    const id = uniqueTableId('readings');
    expect(id.startsWith('readings-')).toBe(true);
    expect(id).toMatch(VALID);
  });

  it.each(['', '-leading-dash', 'spaces and/slashes', 'ünïcødé', 'x'.repeat(200), '.dot'])(
    'sanitizes %j into a valid id of at most 50 characters',
    (prefix) => {
      const id = uniqueTableId(prefix);
      expect(id).toMatch(VALID);
      expect(id.length).toBeLessThanOrEqual(50);
    },
  );

  it('is unique per call', () => {
    const ids = new Set(Array.from({ length: 2_000 }, () => uniqueTableId('t')));
    expect(ids.size).toBe(2_000);
  });
});
