import { describe, expect, it } from 'vitest';
import type { RowData } from '../../../src/model/driver.js';
import { inheritedName } from '../../../src/metadata/reserved-names.js';
import { ownCells, ownColumn, ownFamily } from '../../../src/read/own-cells.js';

const cell = { value: Buffer.from('v'), timestampMicros: 1 };

describe('own cell lookups', () => {
  it('names the Object.prototype members that plain access would inherit, and nothing else', () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])
      expect(inheritedName(name)).toBe(true);
    for (const name of ['temperature', 'name', 'length', 'prototype', '']) expect(inheritedName(name)).toBe(false);
  });

  it('finds only what the row holds', () => {
    const row: RowData = { key: Buffer.from('k'), cells: { s: { q: [cell] } } };
    expect(ownFamily(row, 'constructor')).toBeUndefined();
    expect(ownCells(row, 'constructor', 'name')).toBeUndefined();
    expect(ownCells(row, 's', 'toString')).toBeUndefined();
    expect(ownColumn(undefined, 'q')).toBeUndefined();
    expect(ownCells(row, 's', 'q')).toEqual([cell]);
    const odd: Record<string, Record<string, (typeof cell)[]>> = {};
    Object.defineProperty(odd, '__proto__', { value: { constructor: [cell] }, enumerable: true });
    expect(ownCells({ key: Buffer.from('k'), cells: odd }, '__proto__', 'constructor')).toEqual([cell]);
  });
});
