import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { KeyEncodingError, ValidationError, ValueEncodingError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { Versioned } from '../../../src/metadata/compile-columns.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { rowMutationBytes } from '../../../src/mutation/request-limits.js';
import { encodeMutateEntry } from '../../../src/driver/data-wire-requests.js';

const NOW = 1_700_000_000_000; // 2023-11-14T22:13:20.000Z
const NOW_MICROS = 1_700_000_000_000_000;
const TS = new Date('2023-05-01T12:00:00.000Z');

@Entity({ table: 'readings' })
@Family('m', { gc: { maxVersions: 3 } })
@Family('logs')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'm', qualifier: 'temp', type: 'float' }) temperature?: number | null;
  @Column({ family: 'm', type: 'int' }) count?: number | null;
  @Column({ family: 'm', type: 'boolean' }) ok?: boolean | null;
  @Column({ family: 'logs', type: 'string' }) note?: string | null;
}

@Entity({ table: 'events' })
@KeyPart(0, { literal: 'event' })
@Salt({ buckets: 4, hash: (input) => input.length })
@Family('d')
class Event {
  @KeyPart(1, { type: 'string' }) source!: string;
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
  @Column({ family: 'd', type: 'json' }) payload?: unknown;
}

@Entity({ table: 'md5-readings' })
@Salt({ buckets: 8 })
@Family('m')
class SaltedReading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'm', type: 'float' }) value?: number;
}

@Entity({ table: 'samples' })
@Family('m', { gc: { maxVersions: 5 } })
class Sample {
  @KeyPart(0, { type: 'uint', width: 4 }) id!: number;
  @Column({ family: 'm', type: 'float', versions: 5 }) temp?: Versioned<number> | number | null;
  @Column({ family: 'm', type: 'string' }) label?: string;
  @CellTimestamp() readAt?: Date;
}

@Entity({ table: 'scalars' })
@Family('f')
class Scalars {
  @KeyPart(0, { type: 'int' }) n!: number;
  @Column({ family: 'f', type: 'date' }) when?: Date;
  @Column({ family: 'f', type: 'bigint' }) big?: bigint;
  @Column({ family: 'f', type: 'bytes' }) raw?: Buffer;
  @Column({ family: 'f', type: 'json' }) doc?: unknown;
}

const reading = (values: Partial<Reading>): Reading => Object.assign(new Reading(), { sensorId: 's1', ts: TS }, values);
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

function caught(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

describe('compileSave: row keys', () => {
  it('encodes an unsalted key as text and bytes', () => {
    const m = compileSave(compileEntity(Reading), reading({ temperature: 21.5 }), { now: NOW });
    expect(m.table).toBe('readings');
    expect(m.rowKeyText).toBe('s1#2023-05-01T12:00:00.000Z');
    expect(m.rowKey).toEqual(Buffer.from('s1#2023-05-01T12:00:00.000Z', 'utf8'));
    expect(m.idempotent).toBe(true);
  });

  it('percent-escapes the separator and % inside string parts', () => {
    const m = compileSave(compileEntity(Reading), reading({ sensorId: 'a#b%c', temperature: 1 }), { now: NOW });
    expect(m.rowKeyText).toBe('a%23b%25c#2023-05-01T12:00:00.000Z');
  });

  it('prepends the salt segment, with literals and descending epoch parts', () => {
    const at = new Date(NOW);
    const m = compileSave(compileEntity(Event), Object.assign(new Event(), { source: 'web', at, payload: { a: 1 } }), {
      now: NOW,
    });
    // logical 'event#web#' + (10^13 - 1 - 1700000000000) = 23 characters; custom hash length % 4 = 3
    expect(m.rowKeyText).toBe('03#event#web#8299999999999');
    expect(m.rowKey).toEqual(Buffer.from('03#event#web#8299999999999'));
  });

  it('salts with md5 of the whole logical key (the seed 002 Python recipe)', () => {
    // int(hashlib.md5(b's1#2023-05-01T12:00:00.000Z').hexdigest(), 16) % 8 == 3
    const m = compileSave(
      compileEntity(SaltedReading),
      Object.assign(new SaltedReading(), { sensorId: 's1', ts: TS, value: 1 }),
      { now: NOW },
    );
    expect(m.rowKeyText).toBe('03#s1#2023-05-01T12:00:00.000Z');
  });

  it('encodes uint and signed int key parts zero-padded', () => {
    expect(
      compileSave(compileEntity(Sample), Object.assign(new Sample(), { id: 42, label: 'x' }), { now: NOW }).rowKeyText,
    ).toBe('0042');
    expect(
      compileSave(compileEntity(Scalars), Object.assign(new Scalars(), { n: -1, doc: 1 }), { now: NOW }).rowKeyText,
    ).toBe('09007199254740991');
    expect(
      compileSave(compileEntity(Scalars), Object.assign(new Scalars(), { n: 0, doc: 1 }), { now: NOW }).rowKeyText,
    ).toBe('09007199254740992');
  });
});

describe('compileSave: cells', () => {
  it('writes one setCell per defined column, in declaration order, at now ms × 1000', () => {
    const m = compileSave(compileEntity(Reading), reading({ temperature: 21.5, count: 7, ok: true, note: 'hi' }), {
      now: NOW,
    });
    expect(m).toEqual<CompiledMutation>({
      table: 'readings',
      rowKey: Buffer.from('s1#2023-05-01T12:00:00.000Z'),
      rowKeyText: 's1#2023-05-01T12:00:00.000Z',
      idempotent: true,
      mutations: [
        { kind: 'setCell', family: 'm', qualifier: 'temp', timestampMicros: NOW_MICROS, value: f64(21.5) },
        { kind: 'setCell', family: 'm', qualifier: 'count', timestampMicros: NOW_MICROS, value: i64(7) },
        { kind: 'setCell', family: 'm', qualifier: 'ok', timestampMicros: NOW_MICROS, value: Buffer.from([1]) },
        { kind: 'setCell', family: 'logs', qualifier: 'note', timestampMicros: NOW_MICROS, value: Buffer.from('hi') },
      ],
    });
  });

  it('skips undefined columns and deletes null ones', () => {
    const m = compileSave(compileEntity(Reading), reading({ temperature: 0, count: null, note: undefined }), {
      now: NOW,
    });
    expect(m.mutations).toEqual([
      { kind: 'setCell', family: 'm', qualifier: 'temp', timestampMicros: NOW_MICROS, value: f64(0) },
      { kind: 'deleteFromColumn', family: 'm', qualifier: 'count' },
    ]);
  });

  it('writes falsy values (0, false, empty string)', () => {
    const m = compileSave(compileEntity(Reading), reading({ count: 0, ok: false, note: '' }), { now: NOW });
    expect(m.mutations.map((c) => (c.kind === 'setCell' ? [c.qualifier, c.value.toString('hex')] : c.kind))).toEqual([
      ['count', '0000000000000000'],
      ['ok', '00'],
      ['note', ''],
    ]);
  });

  it('encodes every scalar column type to bytes', () => {
    const m = compileSave(
      compileEntity(Scalars),
      Object.assign(new Scalars(), {
        n: 1,
        when: new Date(1000),
        big: -2n,
        raw: Buffer.from([0xde, 0xad]),
        doc: { b: [1, 'x'] },
      }),
      { now: NOW },
    );
    expect(m.mutations).toEqual([
      { kind: 'setCell', family: 'f', qualifier: 'when', timestampMicros: NOW_MICROS, value: i64(1000) },
      {
        kind: 'setCell',
        family: 'f',
        qualifier: 'big',
        timestampMicros: NOW_MICROS,
        value: Buffer.from('fffffffffffffffe', 'hex'),
      },
      { kind: 'setCell', family: 'f', qualifier: 'raw', timestampMicros: NOW_MICROS, value: Buffer.from([0xde, 0xad]) },
      {
        kind: 'setCell',
        family: 'f',
        qualifier: 'doc',
        timestampMicros: NOW_MICROS,
        value: Buffer.from('{"b":[1,"x"]}'),
      },
    ]);
  });

  it('uses the @CellTimestamp property as every cell timestamp', () => {
    const readAt = new Date('2024-01-02T03:04:05.678Z');
    const m = compileSave(compileEntity(Sample), Object.assign(new Sample(), { id: 1, label: 'a', readAt }), {
      now: NOW,
    });
    expect(m.mutations).toEqual([
      {
        kind: 'setCell',
        family: 'm',
        qualifier: 'label',
        timestampMicros: readAt.getTime() * 1000,
        value: Buffer.from('a'),
      },
    ]);
  });

  it('falls back to now when the @CellTimestamp property is unset', () => {
    const m = compileSave(compileEntity(Sample), Object.assign(new Sample(), { id: 1, label: 'a' }), { now: NOW });
    expect(m.mutations[0]).toMatchObject({ timestampMicros: NOW_MICROS });
  });

  it('writes each version of a versioned column with its own timestamp', () => {
    const t1 = new Date('2024-01-01T00:00:01.000Z');
    const t2 = new Date('2024-01-01T00:00:02.000Z');
    const m = compileSave(
      compileEntity(Sample),
      Object.assign(new Sample(), {
        id: 7,
        temp: [{ value: 2.5, timestamp: t2 }, { value: 1.5, timestamp: t1 }, { value: 0.5 }],
      }),
      { now: NOW },
    );
    expect(m.mutations).toEqual([
      { kind: 'setCell', family: 'm', qualifier: 'temp', timestampMicros: 1_704_067_202_000_000, value: f64(2.5) },
      { kind: 'setCell', family: 'm', qualifier: 'temp', timestampMicros: 1_704_067_201_000_000, value: f64(1.5) },
      { kind: 'setCell', family: 'm', qualifier: 'temp', timestampMicros: NOW_MICROS, value: f64(0.5) },
    ]);
  });

  it('writes a plain value to a versioned column as one new version', () => {
    const m = compileSave(compileEntity(Sample), Object.assign(new Sample(), { id: 7, temp: 3 }), { now: NOW });
    expect(m.mutations).toEqual([
      { kind: 'setCell', family: 'm', qualifier: 'temp', timestampMicros: NOW_MICROS, value: f64(3) },
    ]);
  });

  it("mode 'replace' deletes the row first, then sets (null columns are covered by the row delete)", () => {
    const m = compileSave(compileEntity(Reading), reading({ temperature: 1, count: null }), {
      now: NOW,
      mode: 'replace',
    });
    expect(m.mutations).toEqual([
      { kind: 'deleteFromRow' },
      { kind: 'setCell', family: 'm', qualifier: 'temp', timestampMicros: NOW_MICROS, value: f64(1) },
    ]);
  });

  it('returns a deeply frozen mutation', () => {
    const m = compileSave(compileEntity(Reading), reading({ temperature: 1 }), { now: NOW });
    expect(Object.isFrozen(m)).toBe(true);
    expect(Object.isFrozen(m.mutations)).toBe(true);
    expect(Object.isFrozen(m.mutations[0])).toBe(true);
    expect(() => (m.mutations as unknown[]).push({ kind: 'deleteFromRow' })).toThrow(TypeError);
  });

  it('is deterministic for a fixed now (a retry sends the same cells)', () => {
    const schema = compileEntity(Reading);
    const e = reading({ temperature: 1, note: 'n' });
    expect(compileSave(schema, e, { now: NOW })).toEqual(compileSave(schema, e, { now: NOW }));
  });

  it('accepts a plain object with the entity properties', () => {
    const m = compileSave(compileEntity(Reading), { sensorId: 's1', ts: TS, temperature: 1 } as Reading, { now: NOW });
    expect(m.rowKeyText).toBe('s1#2023-05-01T12:00:00.000Z');
  });
});

describe('compileSave: errors', () => {
  it('rejects a row with nothing to write', () => {
    const schema = compileEntity(Reading);
    const err = caught(() => compileSave(schema, reading({}), { now: NOW }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('Reading "s1#2023-05-01T12:00:00.000Z": nothing to write');
    expect(caught(() => compileSave(schema, reading({ temperature: null, note: null }), { now: NOW }))).toBeInstanceOf(
      ValidationError,
    );
  });

  it('rejects a missing key part', () => {
    const err = caught(() =>
      compileSave(compileEntity(Reading), { sensorId: 's1', temperature: 1 } as Reading, { now: NOW }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('key is missing "ts"');
  });

  it('rejects bad key values with KeyEncodingError naming Entity.property', () => {
    const invalidDate = caught(() =>
      compileSave(compileEntity(Reading), reading({ ts: new Date(Number.NaN), temperature: 1 }), { now: NOW }),
    );
    expect(invalidDate).toBeInstanceOf(KeyEncodingError);
    expect(invalidDate.message).toMatch(/^Reading\.ts: /);
    const negative = caught(() =>
      compileSave(compileEntity(Sample), Object.assign(new Sample(), { id: -1, label: 'x' }), { now: NOW }),
    );
    expect(negative).toBeInstanceOf(KeyEncodingError);
    expect(negative.message).toMatch(/^Sample\.id: -1 /);
    const tooWide = caught(() =>
      compileSave(compileEntity(Sample), Object.assign(new Sample(), { id: 10_000, label: 'x' }), { now: NOW }),
    );
    expect(tooWide).toBeInstanceOf(KeyEncodingError);
    expect(tooWide.message).toMatch(/^Sample\.id: 10000 /);
  });

  it('rejects keys over 4 KiB before anything is sent', () => {
    const err = caught(() =>
      compileSave(compileEntity(Reading), reading({ sensorId: 'x'.repeat(4100), temperature: 1 }), { now: NOW }),
    );
    expect(err).toBeInstanceOf(KeyEncodingError);
    expect(err.message).toContain('Reading.(row key)');
  });

  it('rejects bad cell values with ValueEncodingError naming Entity.property', () => {
    const schema = compileEntity(Reading);
    const fraction = caught(() => compileSave(schema, reading({ count: 1.5 }), { now: NOW }));
    expect(fraction).toBeInstanceOf(ValueEncodingError);
    expect(fraction.message).toMatch(/^Reading\.count: 1\.5 /);
    const text = caught(() => compileSave(schema, reading({ temperature: '21' as unknown as number }), { now: NOW }));
    expect(text).toBeInstanceOf(ValueEncodingError);
    expect(text.message).toMatch(/^Reading\.temperature: "21" /);
  });

  it('rejects malformed versions and cell timestamps', () => {
    const schema = compileEntity(Sample);
    const notVersion = caught(() =>
      compileSave(schema, Object.assign(new Sample(), { id: 1, temp: [1] as unknown as Versioned<number> }), {
        now: NOW,
      }),
    );
    expect(notVersion).toBeInstanceOf(ValidationError);
    expect(notVersion.message).toContain('Sample.temp[0]');
    const badStamp = caught(() =>
      compileSave(schema, Object.assign(new Sample(), { id: 1, label: 'a', readAt: new Date(Number.NaN) }), {
        now: NOW,
      }),
    );
    expect(badStamp).toBeInstanceOf(ValidationError);
    expect(badStamp.message).toContain('Sample.readAt');
    const badVersionStamp = caught(() =>
      compileSave(
        schema,
        Object.assign(new Sample(), { id: 1, temp: [{ value: 1, timestamp: 5 as unknown as Date }] }),
        { now: NOW },
      ),
    );
    expect(badVersionStamp).toBeInstanceOf(ValidationError);
    expect(badVersionStamp.message).toContain('Sample.temp[0].timestamp');
  });

  it('rejects a non-object entity', () => {
    const schema = compileEntity(Reading);
    expect(caught(() => compileSave(schema, null as unknown as Reading))).toBeInstanceOf(ValidationError);
    expect(caught(() => compileSave(schema, [] as unknown as Reading)).message).toContain('an array');
  });
});

describe('compileSave: textValues (a bulk writer whose driver encodes rows as it accepts them)', () => {
  const reading = (note: unknown): Reading =>
    Object.assign(new Reading(), { sensorId: 's1', ts: TS, temperature: 21.5, count: 3, ok: true, note });
  const compile = (entity: Reading, textValues: boolean): CompiledMutation =>
    compileSave(compileEntity(Reading), entity, { now: NOW, frozen: false, textValues });

  it('keeps string values as text with their UTF-8 length, and makes the same bytes when the value is read', () => {
    for (const note of ['plain ascii', 'été 🌍', '', 'x'.repeat(70) + 'é']) {
      const asText = compile(reading(note), true);
      const asBytes = compile(reading(note), false);
      const cell = asText.mutations.find((m) => m.kind === 'setCell' && m.qualifier === 'note');
      expect(cell).toMatchObject({ valueText: note, valueLength: Buffer.byteLength(note, 'utf8') });
      expect(asText.mutations.map((m) => (m.kind === 'setCell' ? m.value : m.kind))).toEqual(
        asBytes.mutations.map((m) => (m.kind === 'setCell' ? m.value : m.kind)),
      );
      // The other columns' cells are the usual ones.
      for (const other of asText.mutations.filter((m) => m.kind === 'setCell' && m.qualifier !== 'note'))
        expect(other).not.toHaveProperty('valueText');
      expect(encodeMutateEntry(asText).bytes).toEqual(encodeMutateEntry(asBytes).bytes);
      expect(rowMutationBytes(asText.rowKey, asText.mutations)).toBe(
        rowMutationBytes(asBytes.rowKey, asBytes.mutations),
      );
    }
  });

  it('refuses what encode refuses, with the same error', () => {
    for (const note of ['\ud800 lone', 42]) {
      const error = (textValues: boolean): unknown => {
        try {
          compile(reading(note), textValues);
        } catch (err) {
          return err;
        }
        return undefined;
      };
      expect(error(true)).toBeInstanceOf(ValueEncodingError);
      expect((error(true) as Error).message).toBe((error(false) as Error).message);
    }
  });
});
