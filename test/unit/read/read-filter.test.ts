import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import type { RowFilter } from '../../../src/model/row-filter.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { Versioned } from '../../../src/metadata/compile-columns.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import { planReadFilter } from '../../../src/read/read-filter.js';
import { resolveRead } from '../../../src/read/read-options.js';

const NOW_MICROS = 1_700_000_000_000_000;
const ONE_DAY_AGO = 1_699_913_600_000_000;
const ONE_HOUR_AGO = 1_699_996_400_000_000;

@Entity({ table: 'sensors' })
@Family('m', { gc: { maxVersions: 3 } })
@Family('logs', { gc: { maxAge: '1d' } })
@Family('u', { gc: { maxVersions: 2, maxAge: '1h' } })
@Family('i', { gc: { maxVersions: 2, maxAge: '1h', mode: 'intersection' } })
@Family('plain')
class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'm', type: 'float', versions: 5 }) temp?: Versioned<number>;
  @Column({ family: 'm', type: 'float', versions: 2 }) hum?: Versioned<number>;
  @Column({ family: 'm', type: 'string' }) name?: string;
  @Column({ family: 'logs', type: 'string', versions: 10 }) log?: Versioned<string>;
  @Column({ family: 'u', type: 'int', versions: 5 }) hits?: Versioned<number>;
  @Column({ family: 'i', type: 'int', versions: 5 }) misses?: Versioned<number>;
  @Column({ family: 'plain', qualifier: 'p', type: 'string' }) plainText?: string;
  @CellTimestamp() seenAt?: Date;
}

const schema = compileEntity(Sensor);
const filterOf = (
  options: { select?: (keyof Sensor & string)[]; versions?: number } = {},
  now = NOW_MICROS,
): RowFilter => planReadFilter(schema, resolveRead(schema, options), now);
const chain = (...filters: RowFilter[]): RowFilter => ({ kind: 'chain', filters });
const family = (name: string): RowFilter => ({ kind: 'family', name });
const qualifiers = (...names: string[]): RowFilter => ({ kind: 'qualifiers', names });
const cells = (limit: number): RowFilter => ({ kind: 'cellsPerColumn', limit });
const since = (startMicros: number): RowFilter => ({ kind: 'timestampRange', startMicros, endMicros: undefined });
const strip: RowFilter = { kind: 'stripValue' };
/** One stripped cell per column of a row with a live cell: shows that a row exists. */
const anyCell = chain(cells(1), strip);
const sensorPresence = (dayAgo = ONE_DAY_AGO, hourAgo = ONE_HOUR_AGO): RowFilter => ({
  kind: 'interleave',
  filters: [
    chain(family('m'), cells(1), strip),
    chain(family('logs'), since(dayAgo), cells(1), strip),
    chain(family('u'), since(hourAgo), cells(1), strip),
    chain(family('i'), cells(1), strip),
    chain(family('plain'), cells(1), strip),
  ],
});
/** A partial select: the selection for rows that hold a selected cell, else the presence cells (so no row is hidden). */
const orRow = (selection: RowFilter, presence: RowFilter = sensorPresence()): RowFilter => ({
  kind: 'condition',
  test: selection,
  pass: selection,
  fail: presence,
});

describe('resolveRead', () => {
  it('reads every column, versioned ones at their declared count', () => {
    const read = resolveRead(schema);
    expect(read.columns.map((c) => c.property)).toEqual(['temp', 'hum', 'name', 'log', 'hits', 'misses', 'plainText']);
    expect(read.versions).toEqual({ temp: 5, hum: 2, name: 1, log: 10, hits: 5, misses: 5, plainText: 1 });
  });

  it('caps requested versions at each column’s declared count; plain columns read 1', () => {
    expect(resolveRead(schema, { versions: 4 }).versions).toEqual({
      temp: 4,
      hum: 2,
      name: 1,
      log: 4,
      hits: 4,
      misses: 4,
      plainText: 1,
    });
    expect(resolveRead(schema, { versions: 99 }).versions).toMatchObject({ temp: 5, log: 10 });
  });

  it('keeps only selected columns; key parts and @CellTimestamp select nothing', () => {
    const read = resolveRead(schema, { select: ['id', 'seenAt', 'name', 'temp'] });
    expect(read.columns.map((c) => c.property)).toEqual(['name', 'temp']);
    expect(resolveRead(schema, { select: ['id'] }).columns).toEqual([]);
  });

  it('rejects unknown properties, a non-array select and bad versions', () => {
    expect(() => resolveRead(schema, { select: ['nope'] })).toThrow(
      /Sensor\.nope: cannot select an unknown property\. Fix: select from id, temp, hum/,
    );
    expect(() => resolveRead(schema, { select: 'name' as unknown as string[] })).toThrow(ValidationError);
    for (const versions of [0, -1, 1.5, Number.NaN])
      expect(() => resolveRead(schema, { versions })).toThrow(ValidationError);
  });
});

describe('planReadFilter', () => {
  it('reads whole families without qualifier filters, capped by versions and by the family’s GC rule', () => {
    expect(filterOf()).toEqual({
      kind: 'interleave',
      filters: [
        chain(family('m'), cells(3)), // most versions read in m is 5, maxVersions 3 → 3; hydrate caps each column
        chain(family('logs'), since(ONE_DAY_AGO), cells(10)), // maxAge → timestamp range start
        chain(family('u'), since(ONE_HOUR_AGO), cells(2)), // union: both bounds
        chain(family('i'), cells(5)), // intersection: nothing server-side
        chain(family('plain'), cells(1)),
      ],
    });
  });

  it('lists qualifiers only for a partly selected family, one chain per version count', () => {
    expect(filterOf({ select: ['temp', 'name'] })).toEqual(
      orRow({
        kind: 'interleave',
        filters: [chain(family('m'), qualifiers('temp'), cells(3)), chain(family('m'), qualifiers('name'), cells(1))],
      }),
    );
  });

  it('sends only a version cap when every family is read whole with the same cap and no age bound', () => {
    @Entity({ table: 'plain-rows' })
    @Family('a')
    @Family('b', { gc: { maxVersions: 1 } })
    class Plain {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'a', type: 'string' }) x?: string;
      @Column({ family: 'b', type: 'string' }) y?: string;
    }
    const plain = compileEntity(Plain);
    expect(planReadFilter(plain, resolveRead(plain), NOW_MICROS)).toEqual(cells(1));
    expect(planReadFilter(plain, resolveRead(plain, { select: ['x'] }), NOW_MICROS)).toEqual(
      orRow(chain(family('a'), cells(1)), anyCell),
    );
  });

  it('shares one chain between columns of a family that read the same number of versions', () => {
    expect(filterOf({ select: ['temp', 'name'], versions: 1 })).toEqual(
      orRow(chain(family('m'), qualifiers('temp', 'name'), cells(1))),
    );
    expect(filterOf({ select: ['temp', 'hum'], versions: 2 })).toEqual(
      orRow(chain(family('m'), qualifiers('temp', 'hum'), cells(2))),
    );
  });

  it('caps versions at maxVersions of the family', () => {
    expect(filterOf({ select: ['temp'], versions: 4 })).toEqual(
      orRow(chain(family('m'), qualifiers('temp'), cells(3))),
    );
    expect(filterOf({ select: ['temp'], versions: 2 })).toEqual(
      orRow(chain(family('m'), qualifiers('temp'), cells(2))),
    );
  });

  it('uses the column qualifier, not the property name', () => {
    @Entity({ table: 'renamed' })
    @Family('f')
    class Renamed {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', qualifier: 'p', type: 'string' }) plainText?: string;
      @Column({ family: 'f', type: 'string' }) other?: string;
    }
    const renamed = compileEntity(Renamed);
    expect(planReadFilter(renamed, resolveRead(renamed, { select: ['plainText'] }), NOW_MICROS)).toEqual(
      orRow(chain(family('f'), qualifiers('p'), cells(1)), anyCell),
    );
  });

  it('floors the maxAge cutoff to whole milliseconds', () => {
    expect(filterOf({ select: ['log'] }, NOW_MICROS + 123)).toEqual(
      orRow(chain(family('logs'), since(ONE_DAY_AGO), cells(10))),
    );
    expect(filterOf({ select: ['log'] }, NOW_MICROS + 1999)).toEqual(
      orRow(
        chain(family('logs'), since(ONE_DAY_AGO + 1000), cells(10)),
        sensorPresence(ONE_DAY_AGO + 1000, ONE_HOUR_AGO + 1000),
      ),
    );
  });

  it('reads only row existence when no column is selected (live cells only)', () => {
    expect(filterOf({ select: ['id'] })).toEqual(sensorPresence());
    expect(filterOf({ select: [] })).toEqual(sensorPresence());
    @Entity({ table: 'no-gc' })
    @Family('f')
    class NoGc {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string' }) x?: string;
    }
    const noGc = compileEntity(NoGc);
    expect(planReadFilter(noGc, resolveRead(noGc, { select: ['id'] }), NOW_MICROS)).toEqual(anyCell);
  });

  it('makes the scan scope depend on the versions actually read', () => {
    const scope = (versions?: number) => planScan(schema, { select: ['temp'], versions }, NOW_MICROS).scope;
    expect(scope(1)).not.toBe(scope(2));
    expect(scope(5)).toBe(scope(99)); // both read the 5 declared versions
    expect(scope(undefined)).toBe(scope(5));
  });

  it('is the filter planScan puts in the plan', () => {
    expect(planScan(schema, { select: ['hits'], versions: 3 }, NOW_MICROS).filter).toEqual(
      orRow(chain(family('u'), since(ONE_HOUR_AGO), cells(2))),
    );
  });
});
