import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEmbedded } from '../../../src/codec/embedded-codec.js';
import { decodeRowKey } from '../../../src/key/physical-key.js';
import { CellTimestamp, Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import type { CellData, RowData } from '../../../src/model/driver.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { ColumnSchema, EntitySchema } from '../../../src/metadata/entity-schema.js';
import type { Versioned } from '../../../src/metadata/compile-columns.js';
import { hydrate } from '../../../src/read/hydrate.js';
import { resolveRead, type ResolvedRead } from '../../../src/read/read-options.js';
import type { GcRule } from '../../../src/model/gc-rule.js';
import { propertyRuns } from '../../support/property-runs.js';

const NOW = 1_700_000_000_000_000;
const SECOND = 1_000_000;
const HOUR = 3600 * SECOND;

class Address {
  street?: string;
  city?: string;
  zip?: number;
}

@Entity({ table: 'hydrate-property' })
@KeyPart(0, { literal: 'dev' })
@Family('s')
@Family('m', { gc: { maxVersions: 3 } })
@Family('t', { gc: { maxAge: '1h' } })
@Family('u', { gc: { maxVersions: 2, maxAge: '1h' } })
@Family('i', { gc: { maxVersions: 1, maxAge: '1h', mode: 'intersection' } })
class Device {
  @KeyPart(1, { type: 'string' }) id!: string;
  @KeyPart(2, { type: 'uint', width: 4 }) slot!: number;
  @Column({ family: 's', type: 'string' }) name?: string;
  @Column({ family: 's', type: 'int' }) count?: number;
  @Column({ family: 's', type: 'float' }) ratio?: number;
  @Column({ family: 's', type: 'boolean' }) on?: boolean;
  @Column({ family: 's', type: Address, layout: 'flatten', fields: ['street', 'city'], fieldPrefix: 'b:' })
  bill?: Address;
  @Column({ family: 'm', qualifier: 'tp', type: 'float', versions: 5 }) temps?: Versioned<number>;
  @Column({ family: 'm', type: 'string' }) mode?: string;
  @Column({ family: 't', type: 'string' }) status?: string;
  @Column({ family: 't', type: 'string', versions: 3 }) events?: Versioned<string>;
  @Column({ family: 'u', type: 'string', versions: 4 }) notes?: Versioned<string>;
  @Column({ family: 'u', type: 'string' }) label?: string;
  @Column({ family: 'u', type: Address, layout: 'flatten', fields: ['street', 'city', 'zip'] }) home?: Address;
  @Column({ family: 'i', type: 'int', versions: 3 }) levels?: Versioned<number>;
  @Column({ family: 'i', type: 'string' }) tag?: string;
  @CellTimestamp() seenAt?: Date;
  constructed = true;
}

@Entity({ table: 'hydrate-property-salted' })
@Salt({ buckets: 4 })
@Family('f', { gc: { maxAge: '1h' } })
class Salted {
  @KeyPart(0, { type: 'string' }) id!: string;
  @KeyPart(1, { type: 'int' }) n!: number;
  @Column({ family: 'f', type: 'string' }) v?: string;
  @Column({ family: 'f', type: 'string', versions: 2 }) w?: Versioned<string>;
}

@Entity({ table: 'hydrate-property-plain' })
@Family('f')
class Plain {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'f', type: 'string' }) v?: string;
}

/** `survivesGc` before it lost its closures. */
function referenceSurvives(
  rule: GcRule | undefined,
  index: number,
  timestampMicros: number,
  nowMicros: number,
): boolean {
  if (rule === undefined) return true;
  switch (rule.kind) {
    case 'maxVersions':
      return index < rule.count;
    case 'maxAge':
      return timestampMicros >= nowMicros - rule.seconds * 1_000_000;
    case 'union':
      return rule.rules.every((r) => referenceSurvives(r, index, timestampMicros, nowMicros));
    case 'intersection':
      return rule.rules.some((r) => referenceSurvives(r, index, timestampMicros, nowMicros));
  }
}

/** `hydrate` before the per-read plan: GC rules looked up and cells filtered per column, per row. */
function referenceHydrate<T>(schema: EntitySchema<T>, row: RowData, read: ResolvedRead, nowMicros: number): T {
  const rules = new Map(schema.families.map((f) => [f.name, f.gc]));
  const liveCells = (column: ColumnSchema, cells: readonly CellData[] | undefined): readonly CellData[] => {
    if (cells === undefined || cells.length === 0) return [];
    const rule = rules.get(column.family);
    if (rule === undefined) return cells;
    return cells.filter((c, i) => referenceSurvives(rule, i, c.timestampMicros, nowMicros));
  };
  const target = schema.target as unknown as new () => object;
  const entity = (target.length === 0 ? new target() : Object.create(target.prototype as object)) as Record<
    string,
    unknown
  >;
  Object.assign(entity, decodeRowKey(schema, row.key));
  let newest = -1;
  for (const column of read.columns) {
    if (column.layout === 'flatten') {
      const latest = new Map<string, Buffer>();
      let embeddedNewest = -1;
      for (const field of column.fields ?? []) {
        const cell = liveCells(column, row.cells[column.family]?.[field.qualifier])[0];
        if (cell === undefined) continue;
        latest.set(field.qualifier, cell.value);
        embeddedNewest = Math.max(embeddedNewest, cell.timestampMicros);
      }
      const value = decodeEmbedded({ entity: schema.name, property: column.property }, column, latest);
      if (value !== undefined) entity[column.property] = value;
      newest = Math.max(newest, embeddedNewest);
      continue;
    }
    const cells = liveCells(column, row.cells[column.family]?.[column.qualifier]);
    if (cells.length === 0) continue;
    newest = Math.max(newest, cells[0]?.timestampMicros ?? -1);
    if (column.versioned) {
      const n = read.versions[column.property] ?? column.versions;
      entity[column.property] = cells
        .slice(0, n)
        .map((c) => ({ value: column.codec.decode(c.value), timestamp: new Date(c.timestampMicros / 1000) }));
    } else {
      entity[column.property] = column.codec.decode((cells[0] as CellData).value);
    }
  }
  if (schema.cellTimestamp !== undefined && newest >= 0)
    entity[schema.cellTimestamp] = new Date(Math.floor(newest / 1000));
  return entity as T;
}

/** A comparable picture of an entity (class, own keys in order, Dates as times) or of an error. */
function picture(run: () => unknown): unknown {
  const draw = (value: unknown): unknown => {
    if (value instanceof Date) return `Date ${value.getTime()}`;
    if (Array.isArray(value)) return value.map(draw);
    if (typeof value === 'number' && Object.is(value, -0)) return '-0';
    if (typeof value === 'object' && value !== null)
      return [value.constructor.name, Object.keys(value).map((k) => [k, draw((value as Record<string, unknown>)[k])])];
    return value;
  };
  try {
    return { result: draw(run()) };
  } catch (err) {
    return { error: (err as Error).constructor.name, message: (err as Error).message };
  }
}

const int64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
};
const float64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(n);
  return b;
};

/** Cell bytes for a qualifier: mostly what its column stores, sometimes bytes it cannot decode. */
const bytesFor = (kind: string): fc.Arbitrary<Buffer> => {
  const valid: Record<string, fc.Arbitrary<Buffer>> = {
    string: fc.string({ maxLength: 6 }).map((s) => Buffer.from(s)),
    int: fc.integer({ min: -1000, max: 1000 }).map(int64),
    float: fc.double({ noNaN: true }).map(float64),
    boolean: fc.boolean().map((b) => Buffer.from([b ? 1 : 0])),
    json: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()).map((v) => Buffer.from(JSON.stringify(v))),
  };
  const broken = fc.constantFrom(Buffer.from([0xff]), Buffer.from([1, 2, 3]), Buffer.from('{'));
  return fc.oneof({ weight: 30, arbitrary: valid[kind] ?? valid['string']! }, { weight: 1, arbitrary: broken });
};

/** The qualifiers a family holds: its columns', its flattened fields', and a stray one. */
const QUALIFIERS: Record<string, readonly (readonly [string, string])[]> = {
  s: [
    ['name', 'string'],
    ['count', 'int'],
    ['ratio', 'float'],
    ['on', 'boolean'],
    ['b:street', 'json'],
    ['b:city', 'json'],
    ['stray', 'string'],
  ],
  m: [
    ['tp', 'float'],
    ['mode', 'string'],
  ],
  t: [
    ['status', 'string'],
    ['events', 'string'],
  ],
  u: [
    ['notes', 'string'],
    ['label', 'string'],
    ['home.street', 'json'],
    ['home.city', 'json'],
    ['home.zip', 'json'],
  ],
  i: [
    ['levels', 'int'],
    ['tag', 'string'],
  ],
  f: [
    ['v', 'string'],
    ['w', 'string'],
  ],
};

/** Versions newest first (sometimes out of order), around the 1-hour GC age limit. */
const versionsFor = (kind: string): fc.Arbitrary<CellData[]> =>
  fc
    .tuple(
      fc.array(fc.tuple(bytesFor(kind), fc.integer({ min: 0, max: 3 * HOUR })), { minLength: 0, maxLength: 5 }),
      fc.nat({ max: 9 }),
    )
    .map(([cells, shuffle]) => {
      const list = cells.map(([value, age]) => ({ value, timestampMicros: NOW - Math.floor(age / 1000) * 1000 }));
      return shuffle === 0 ? list : list.sort((a, b) => b.timestampMicros - a.timestampMicros);
    });

const cellsArb = (families: readonly string[]): fc.Arbitrary<RowData['cells']> =>
  fc
    .tuple(
      ...families.map((family) =>
        fc.option(
          fc.tuple(
            ...(QUALIFIERS[family] ?? []).map(([q, kind]) =>
              fc.option(
                versionsFor(kind).map((v) => [q, v] as const),
                { nil: undefined },
              ),
            ),
          ),
          { nil: undefined },
        ),
      ),
    )
    .map((perFamily) =>
      Object.fromEntries(
        perFamily.flatMap((columns, i) =>
          columns === undefined
            ? []
            : [[families[i] as string, Object.fromEntries(columns.filter((c) => c !== undefined))]],
        ),
      ),
    );

const readArb = (schema: EntitySchema): fc.Arbitrary<ResolvedRead> =>
  fc
    .record({
      select: fc.option(
        fc.subarray([
          ...schema.key.properties,
          ...schema.columns.map((c) => c.property),
          ...(schema.cellTimestamp === undefined ? [] : [schema.cellTimestamp]),
        ]),
        { nil: undefined },
      ),
      versions: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
    })
    .map((options) => resolveRead(schema, options));

const device = compileEntity(Device) as EntitySchema;
const salted = compileEntity(Salted) as EntitySchema;

const deviceCase = fc.record({
  schema: fc.constant(device),
  key: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('dev#d%231#0007', 'dev#a#0000') },
    { weight: 1, arbitrary: fc.constantFrom('dev#a#00x7', 'other#a#0001', 'dev#a') },
  ),
  cells: cellsArb(['s', 'm', 't', 'u', 'i']),
  read: readArb(device),
  now: fc.integer({ min: -2 * HOUR, max: 2 * HOUR }).map((d) => NOW + d),
});
const saltedCase = fc.record({
  schema: fc.constant(salted),
  key: fc.oneof(
    { weight: 8, arbitrary: fc.constant('02#a#09007199254740989') },
    { weight: 1, arbitrary: fc.constantFrom('00#a#09007199254740989', '7#a#09007199254740989', 'a#09007199254740989') },
  ),
  cells: cellsArb(['f']),
  read: readArb(salted),
  now: fc.integer({ min: -2 * HOUR, max: 2 * HOUR }).map((d) => NOW + d),
});

describe('hydrate with a per-read plan', () => {
  it('builds exactly what the per-row lookups built (or throws the same error)', () => {
    fc.assert(
      fc.property(fc.oneof(deviceCase, saltedCase), fc.nat({ max: 2 }), ({ schema, key, cells, read, now }, repeat) => {
        const row: RowData = { key: Buffer.from(key), cells };
        const expected = picture(() => referenceHydrate(schema, row, read, now));
        for (let i = 0; i <= repeat; i++) expect(picture(() => hydrate(schema, row, read, now))).toEqual(expected);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('reuses a read across rows, schemas and times without mixing them up', () => {
    const read = resolveRead(device);
    const row = (ts: number): RowData => ({
      key: Buffer.from('dev#a#0001'),
      cells: { t: { status: [{ value: Buffer.from('x'), timestampMicros: ts }] } },
    });
    expect(hydrate(device, row(NOW - HOUR), read, NOW)).toMatchObject({ status: 'x' });
    expect(hydrate(device, row(NOW - HOUR), read, NOW + SECOND)).not.toHaveProperty('status');
  });

  it('uses the GC rules of the schema it is given, also with a read resolved for another one', () => {
    const plain = compileEntity(Plain) as EntitySchema;
    const read = resolveRead(plain);
    const old = { f: { v: [{ value: Buffer.from('old'), timestampMicros: NOW - 2 * HOUR }] } };
    const plainRow: RowData = { key: Buffer.from('a'), cells: old };
    const saltedRow: RowData = { key: Buffer.from('02#a#09007199254740989'), cells: old };
    for (let i = 0; i < 2; i++) {
      expect(hydrate(plain, plainRow, read, NOW)).toMatchObject({ v: 'old' });
      expect(picture(() => hydrate(salted, saltedRow, read, NOW))).toEqual(
        picture(() => referenceHydrate(salted, saltedRow, read, NOW)),
      );
      expect(hydrate(salted, saltedRow, read, NOW)).not.toHaveProperty('v');
    }
  });
});
