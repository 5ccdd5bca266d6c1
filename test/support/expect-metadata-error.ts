import { expect } from 'vitest';
import { MetadataError } from '../../src/errors/index.js';

/** Runs `fn`, expects a MetadataError whose message contains every fragment, and returns it. */
export function expectMetadataError(fn: () => unknown, ...fragments: string[]): MetadataError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(MetadataError);
  for (const f of fragments) expect((caught as Error).message).toContain(f);
  return caught as MetadataError;
}
