import { describe, expect, it } from 'vitest';
import { toRawMutation } from '../../../src/driver/client-mutation.js';
import type { CompiledMutation } from '../../../src/model/mutation.js';

const mutation: CompiledMutation = {
  table: 't',
  rowKey: Buffer.from('k'),
  rowKeyText: 'k',
  mutations: [
    { kind: 'deleteFromRow' },
    { kind: 'deleteFromFamily', family: 'g' },
    { kind: 'deleteFromColumn', family: 'f', qualifier: 'old' },
    { kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: 5_000, value: Buffer.from('v') },
  ],
  idempotent: true,
};

describe('toRawMutation', () => {
  it('converts every cell mutation, with UTF-8 qualifiers', () => {
    expect(mutation.mutations.map(toRawMutation)).toEqual([
      { deleteFromRow: {} },
      { deleteFromFamily: { familyName: 'g' } },
      { deleteFromColumn: { familyName: 'f', columnQualifier: Buffer.from('old') } },
      {
        setCell: {
          familyName: 'f',
          columnQualifier: Buffer.from('q'),
          timestampMicros: 5_000,
          value: Buffer.from('v'),
        },
      },
    ]);
  });
});
