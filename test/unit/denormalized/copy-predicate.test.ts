import { describe, expect, it } from 'vitest';
import { copyPredicate } from '../../../src/denormalize/propagate.js';
import { toClientFilter } from '../../support/client-filter.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { Reading } from './entities.js';

const schema = compileEntity(Reading);
const columns = ['location', 'kind'].map((p) => schema.columnsByProperty[p]).filter((c) => c !== undefined);

describe('copyPredicate', () => {
  it('tests the copied columns for a cell at the version or later: then block all, else pass all (the row exists)', () => {
    expect(copyPredicate(columns, 1_700_000_000_000_000)).toEqual({
      kind: 'condition',
      test: {
        kind: 'chain',
        filters: [
          {
            kind: 'interleave',
            filters: [
              {
                kind: 'chain',
                filters: [
                  { kind: 'family', name: 'meta' },
                  { kind: 'qualifiers', names: ['location'] },
                ],
              },
              {
                kind: 'chain',
                filters: [
                  { kind: 'family', name: 'meta' },
                  { kind: 'qualifiers', names: ['kind'] },
                ],
              },
            ],
          },
          { kind: 'timestampRange', startMicros: 1_700_000_000_000_000, endMicros: undefined },
        ],
      },
      pass: { kind: 'blockAll' },
      fail: { kind: 'passAll' },
    });
  });

  it("is sent as the client's condition filter, with the time bound as a Date", () => {
    expect(toClientFilter(copyPredicate(columns.slice(0, 1), 1_700_000_000_000_000))).toEqual({
      condition: {
        test: [
          { family: 'meta' },
          { column: Buffer.from('location') },
          { time: { start: new Date(1_700_000_000_000) } },
        ],
        pass: { all: false },
        fail: { all: true },
      },
    });
  });
});
