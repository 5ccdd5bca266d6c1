import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import type { CellData, RowData } from '../../../src/model/driver.js';
import { KeyEncodingError, ValidationError, ValueEncodingError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { Versioned } from '../../../src/metadata/compile-columns.js';
import { hydrate } from '../../../src/read/hydrate.js';
import { resolveRead } from '../../../src/read/read-options.js';

const NOW_MS = 1_700_000_000_000;
const NOW = NOW_MS * 1000;
const SECOND = 1_000_000;
const HOUR = 3600 * SECOND;

class Location {
  lat!: number;
  lng!: number;
  get label(): string {
    return `${this.lat},${this.lng}`;
  }
}

@Entity({ table: 'devices' })
@KeyPart(0, { literal: 'dev' })
@Family('s')
@Family('m', { gc: { maxVersions: 3 } })
@Family('t', { gc: { maxAge: '1h' } })
class Device {
  @KeyPart(1, { type: 'string' }) id!: string;
  @KeyPart(2, { type: 'uint', width: 4 }) slot!: number;
  @KeyPart(3, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
  @Column({ family: 's', type: 'string' }) name?: string;
  @Column({ family: 's', type: 'int' }) count?: number;
  @Column({ family: 's', type: 'float' }) ratio?: number;
  @Column({ family: 's', type: 'boolean' }) on?: boolean;
  @Column({ family: 's', qualifier: 'since', type: 'date' }) installedAt?: Date;
  @Column({ family: 's', type: 'bigint' }) big?: bigint;
  @Column({ family: 's', type: 'json' }) meta?: unknown;
  @Column({ family: 's', type: 'bytes' }) raw?: Buffer;
  @Column({ family: 's', type: Location }) location?: Location;
  @Column({ family: 'm', qualifier: 'tp', type: 'float', versions: 5 }) temps?: Versioned<number>;
  @Column({ family: 't', type: 'string' }) status?: string;
  @Column({ family: 't', type: 'string', versions: 3 }) events?: Versioned<string>;
  @CellTimestamp() seenAt?: Date;
  constructed = true;
}

@Entity({ table: 'needs-args' })
@Family('f')
class NeedsArgs {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'f', type: 'string' }) v?: string;
  readonly made: string;
  constructor(made: string) {
    if (typeof made !== 'string') throw new Error('constructor must not run');
    this.made = made;
  }
}

@Entity({ table: 'salted' })
@Salt({ buckets: 4, hash: (input) => input.length })
@Family('f')
class Salted {
  @KeyPart(0, { type: 'string' }) id!: string;
  @KeyPart(1, { type: 'int' }) n!: number;
  @Column({ family: 'f', type: 'string' }) v?: string;
}

const AT = new Date(1_690_000_000_000); // descending: 9999999999999 - 1690000000000 = 8309999999999
const KEY = 'dev#d%231#0007#8309999999999';

const f64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(n);
  return b;
};
const i64 = (n: bigint | number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
};
const cell = (value: Buffer | string, timestampMicros = NOW - SECOND): CellData => ({
  value: typeof value === 'string' ? Buffer.from(value) : value,
  timestampMicros,
});
const row = (cells: RowData['cells'], key = KEY): RowData => ({ key: Buffer.from(key), cells });

const schema = compileEntity(Device);
const all = resolveRead(schema);

describe('hydrate', () => {
  it('decodes the key parts from the row key (escapes, literals, descending)', () => {
    const d = hydrate(schema, row({ s: { name: [cell('x')] } }), all, NOW);
    expect(d.id).toBe('d#1');
    expect(d.slot).toBe(7);
    expect(d.at).toEqual(AT);
  });

  it('builds an instance of the entity class, running its no-argument constructor', () => {
    const d = hydrate(schema, row({ s: { name: [cell('x')] } }), all, NOW);
    expect(d).toBeInstanceOf(Device);
    expect(d.constructed).toBe(true);
  });

  it('does not call a constructor that needs arguments', () => {
    const s = compileEntity(NeedsArgs);
    const e = hydrate(s, row({ f: { v: [cell('x')] } }, 'a'), resolveRead(s), NOW);
    expect(e).toBeInstanceOf(NeedsArgs);
    expect(e.id).toBe('a');
    expect(e.v).toBe('x');
    expect(e.made).toBeUndefined();
  });

  it('decodes every column type', () => {
    const d = hydrate(
      schema,
      row({
        s: {
          name: [cell('Pump')],
          count: [cell(i64(-42))],
          ratio: [cell(f64(0.25))],
          on: [cell(Buffer.from([1]))],
          since: [cell(i64(1_600_000_000_000))],
          big: [cell(i64(2n ** 62n))],
          meta: [cell('{"tags":["a"],"n":null}')],
          raw: [cell(Buffer.from([0, 255]))],
          location: [cell('{"lat":1.5,"lng":-2}')],
        },
      }),
      all,
      NOW,
    );
    expect(d.name).toBe('Pump');
    expect(d.count).toBe(-42);
    expect(d.ratio).toBe(0.25);
    expect(d.on).toBe(true);
    expect(d.installedAt).toEqual(new Date(1_600_000_000_000));
    expect(d.big).toBe(2n ** 62n);
    expect(d.meta).toEqual({ tags: ['a'], n: null });
    expect(d.raw).toEqual(Buffer.from([0, 255]));
    expect(d.location).toBeInstanceOf(Location);
    expect(d.location?.label).toBe('1.5,-2');
  });

  it('takes the newest cell of a plain column', () => {
    const d = hydrate(
      schema,
      row({ s: { name: [cell('new', NOW - SECOND), cell('old', NOW - 2 * SECOND)] } }),
      all,
      NOW,
    );
    expect(d.name).toBe('new');
  });

  it('maps versioned columns to { value, timestamp }[] newest first, capped by GC and by the read', () => {
    const temps = [1, 2, 3, 4, 5].map((v, i) => cell(f64(v), NOW - (i + 1) * SECOND));
    const d = hydrate(schema, row({ m: { tp: temps } }), all, NOW);
    // family m keeps 3 versions (GC), although the column declares 5
    expect(d.temps).toEqual([
      { value: 1, timestamp: new Date(NOW_MS - 1000) },
      { value: 2, timestamp: new Date(NOW_MS - 2000) },
      { value: 3, timestamp: new Date(NOW_MS - 3000) },
    ]);
    const two = hydrate(schema, row({ m: { tp: temps } }), resolveRead(schema, { versions: 2 }), NOW);
    expect(two.temps).toEqual([
      { value: 1, timestamp: new Date(NOW_MS - 1000) },
      { value: 2, timestamp: new Date(NOW_MS - 2000) },
    ]);
  });

  it('skips cells the GC policy condemns (GC runs late, reads must not see them)', () => {
    const d = hydrate(
      schema,
      row({
        t: {
          status: [cell('stale', NOW - HOUR - 1000)],
          events: [cell('recent', NOW - HOUR), cell('expired', NOW - HOUR - 1000)],
        },
        s: { name: [cell('x')] },
      }),
      all,
      NOW,
    );
    expect(d.status).toBeUndefined();
    expect(d.events).toEqual([{ value: 'recent', timestamp: new Date(NOW_MS - 3_600_000) }]);
  });

  it('fills @CellTimestamp with the newest live cell of the selected columns', () => {
    const d = hydrate(
      schema,
      row({ s: { name: [cell('x', NOW - 5 * SECOND)], count: [cell(i64(1), NOW - 2 * SECOND)] } }),
      all,
      NOW,
    );
    expect(d.seenAt).toEqual(new Date(NOW_MS - 2000));
    const condemned = hydrate(
      schema,
      row({
        s: { name: [cell('x', NOW - 2 * HOUR)] },
        t: { status: [cell('stale', NOW - HOUR - 1000)] }, // newer than name, but past maxAge: ignored
      }),
      all,
      NOW,
    );
    expect(condemned.seenAt).toEqual(new Date(NOW_MS - 7_200_000));
    const nameOnly = hydrate(
      schema,
      row({ s: { name: [cell('x', NOW - 5 * SECOND)], count: [cell(i64(1), NOW - 2 * SECOND)] } }),
      resolveRead(schema, { select: ['name'] }),
      NOW,
    );
    expect(nameOnly.seenAt).toEqual(new Date(NOW_MS - 5000));
    expect(nameOnly.count).toBeUndefined();
  });

  it('leaves missing (sparse) and unselected columns undefined', () => {
    const d = hydrate(schema, row({ s: { name: [cell('x')] }, m: {} }), all, NOW);
    for (const p of [
      'count',
      'ratio',
      'on',
      'installedAt',
      'big',
      'meta',
      'raw',
      'location',
      'temps',
      'status',
      'events',
    ] as const) {
      expect(d[p], p).toBeUndefined();
      expect(Object.hasOwn(d, p), p).toBe(false);
    }
    expect(hydrate(schema, row({}), all, NOW).seenAt).toBeUndefined();
  });

  it('decodes salted keys', () => {
    const s = compileEntity(Salted);
    const e = hydrate(s, row({ f: { v: [cell('x')] } }, '03#a#09007199254740989'), resolveRead(s), NOW);
    expect({ ...e }).toEqual({ id: 'a', n: -3, v: 'x' });
  });

  it('throws on a key or cell that does not decode', () => {
    expect(() => hydrate(schema, row({}, 'other#d1#0007#8309999999999'), all, NOW)).toThrow(ValidationError);
    expect(() => hydrate(schema, row({}, 'dev#d1#x007#8309999999999'), all, NOW)).toThrow(KeyEncodingError);
    expect(() => hydrate(schema, row({ s: { count: [cell(Buffer.from([1, 2, 3]))] } }), all, NOW)).toThrow(
      ValueEncodingError,
    );
    expect(() => hydrate(schema, row({ s: { count: [cell(Buffer.from([1, 2, 3]))] } }), all, NOW)).toThrow(
      /Device\.count/,
    );
  });
});

@Entity({ table: 'odd-names' })
@Family('constructor')
@Family('s')
class OddNames {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'constructor', qualifier: 'name', type: 'string' }) label?: string;
  @Column({ family: 's', qualifier: 'hasOwnProperty', type: 'int' }) owned?: number;
  @Column({ family: 's', qualifier: 'toString', type: 'string', versions: 2 }) text?: Versioned<string>;
}

describe('hydrate with families and qualifiers named like Object.prototype members', () => {
  const schema = compileEntity(OddNames);
  const all = resolveRead(schema);
  const oddRow = (cells: RowData['cells']): RowData => ({ key: Buffer.from('o1'), cells });

  it('leaves absent columns undefined instead of reading inherited members', () => {
    const entity = hydrate(schema, oddRow({}), all, NOW);
    expect(entity).toMatchObject({ id: 'o1' });
    expect(entity.label).toBeUndefined();
    expect(entity.owned).toBeUndefined();
    expect(entity.text).toBeUndefined();
    const onlyOther = hydrate(
      schema,
      oddRow({ s: { other: [{ value: Buffer.from('x'), timestampMicros: NOW }] } }),
      all,
      NOW,
    );
    expect(onlyOther.owned).toBeUndefined();
  });

  it('reads the columns when the row holds them', () => {
    const eight = Buffer.alloc(8);
    eight.writeBigInt64BE(5n);
    const cells: Record<string, Record<string, CellData[]>> = {};
    Object.defineProperty(cells, 'constructor', {
      value: { name: [{ value: Buffer.from('lab'), timestampMicros: NOW }] },
      enumerable: true,
    });
    cells['s'] = {};
    Object.defineProperty(cells['s'], 'hasOwnProperty', {
      value: [{ value: eight, timestampMicros: NOW }],
      enumerable: true,
    });
    Object.defineProperty(cells['s'], 'toString', {
      value: [
        { value: Buffer.from('b'), timestampMicros: NOW },
        { value: Buffer.from('a'), timestampMicros: NOW - SECOND },
      ],
      enumerable: true,
    });
    const entity = hydrate(schema, oddRow(cells), all, NOW);
    expect(entity.label).toBe('lab');
    expect(entity.owned).toBe(5);
    expect(entity.text?.map((v) => v.value)).toEqual(['b', 'a']);
  });
});
