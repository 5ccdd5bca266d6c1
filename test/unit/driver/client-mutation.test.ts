import { describe, expect, it } from 'vitest';
import { toRawEntry, toRawMutation } from '../../../src/driver/client-mutation.js';
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

describe('toRawEntry', () => {
  it('converts every cell mutation in order, with UTF-8 qualifiers', () => {
    expect({ ...toRawEntry(mutation) }).toEqual({
      rowKey: Buffer.from('k'),
      mutations: [
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
      ],
    });
    expect(toRawEntry(mutation).mutations).toEqual(mutation.mutations.map(toRawMutation));
  });

  it('builds a new entry on every call, which is not a plain object (so the client does not deep-copy it)', () => {
    const a = toRawEntry(mutation);
    const b = toRawEntry(mutation);
    expect(a).not.toBe(b);
    expect(a.rowKey).toBe(mutation.rowKey);
    expect(Object.getPrototypeOf(a)).not.toBe(Object.prototype);
  });
});
