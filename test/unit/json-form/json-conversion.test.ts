import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { ValidationError, type ValidationIssue } from '../../../src/errors/index.js';
import { fromJson, toJson, toJsonSchema } from '../../../src/json.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { Repository } from '../../../src/repository/repository.js';
import { compileStrict } from '../../support/ajv.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { Place, Sensor } from './entities.js';

const body = {
  site: 'oslo',
  chip: 'AQID',
  slot: 7,
  label: 'north wing',
  count: 12,
  gain: 'Infinity',
  active: true,
  installed: '2024-05-01T14:00:00.123456+02:00',
  serial: '-9223372036854775808',
  firmware: '',
  settings: { mode: 'eco', levels: [1, 2, null] },
  place: { street: 'Main 1', city: 'Oslo' },
  shipping: [{ city: 'Bergen' }],
  temperature: [{ value: 21.5, timestamp: '2024-05-01T12:00:00Z' }, { value: 'NaN' }],
};

function issuesOf(fn: () => unknown): readonly ValidationIssue[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).issues;
  }
  throw new Error('expected a ValidationError');
}

describe('fromJson', () => {
  it('turns a create body into entity data: dates, bytes, bigints, versions, non-finite floats', () => {
    const data = fromJson(Sensor, body, { for: 'create' });
    expect(data.chip).toEqual(Buffer.from([1, 2, 3]));
    expect(data.installed).toEqual(new Date('2024-05-01T12:00:00.123Z'));
    expect(data.serial).toBe(-(2n ** 63n));
    expect(data.firmware).toEqual(Buffer.alloc(0));
    expect(data.gain).toBe(Infinity);
    expect(data.temperature).toEqual([
      { value: 21.5, timestamp: new Date('2024-05-01T12:00:00Z') },
      { value: Number.NaN },
    ]);
    expect(data.settings).toEqual(body.settings);
    expect(data.place).toEqual(body.place);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  });

  it('gives what create() and save() take, and toJson gives the JSON back, as the read schema says', async () => {
    const repo = new Repository(new FakeDriver(), compileEntity(Sensor));
    await repo.save(repo.create(fromJson(Sensor, body, { for: 'create' })));
    const read = await repo.findOne({ site: 'oslo', chip: Buffer.from([1, 2, 3]), slot: 7 });
    const json = toJson(Sensor, read as Sensor);
    expect(json).toEqual({
      ...body,
      installed: '2024-05-01T12:00:00.123Z',
      // Newest first: the version without a timestamp took the time of the write.
      temperature: [
        { value: 'NaN', timestamp: expect.any(String) as unknown },
        { value: 21.5, timestamp: '2024-05-01T12:00:00.000Z' },
      ],
    });
    const readSchema = compileStrict(toJsonSchema(Sensor, { for: 'read' }));
    expect(readSchema(json)).toBe(true);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('turns an update body into changes: null deletes, the key stays out', async () => {
    const changes = fromJson(Sensor, { label: null, serial: '42', temperature: [{ value: 1 }] }, { for: 'update' });
    expect(changes).toEqual({ label: null, serial: 42n, temperature: [{ value: 1 }] });
    const repo = new Repository(new FakeDriver(), compileEntity(Sensor));
    const key = { site: 'oslo', chip: Buffer.from([1]), slot: 1 };
    await repo.save(repo.create({ ...key, label: 'north' }));
    await repo.update(key, changes);
    const found = await repo.findOne(key);
    expect(found?.serial).toBe(42n);
    expect(found?.label).toBeUndefined();
    expect(found?.temperature).toEqual([{ value: 1, timestamp: expect.any(Date) as unknown }]);
  });

  it('lists every value that is not in its JSON form, with its path', () => {
    const issues = issuesOf(() =>
      fromJson(
        Sensor,
        {
          site: 'oslo',
          chip: 'not base64!',
          slot: 1,
          installed: 1714564800000,
          serial: 42,
          temperature: [{ value: 1, timestamp: 'yesterday' }, { value: 2, at: 'x' }, 'hot', {}],
          place: null,
        },
        { for: 'create' },
      ),
    );
    expect(issues.map((i) => i.path)).toEqual([
      'Sensor.chip',
      'Sensor.installed',
      'Sensor.serial',
      'Sensor.temperature[0].timestamp',
      'Sensor.temperature[1].at',
      'Sensor.temperature[2]',
      'Sensor.temperature[3]',
      'Sensor.place',
    ]);
    expect(issues.at(-1)?.message).toBe('null deletes a cell, which only an update does: leave the property out');
  });

  it('refuses unknown properties, with the closest one, and a __proto__ key', () => {
    const issues = issuesOf(() =>
      fromJson(Sensor, JSON.parse('{"site": "a", "lable": "x", "__proto__": {"x": 1}, "zzz": 1}'), { for: 'create' }),
    );
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      ['Sensor.lable', 'not a property of Sensor. Did you mean "label"?'],
      ['Sensor.__proto__', expect.stringContaining('not a property of Sensor (properties: site, chip, slot, label,')],
      ['Sensor.zzz', expect.stringContaining('not a property of Sensor (properties:')],
    ]);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('refuses a key part in an update, and null where it deletes nothing', () => {
    @Entity({ table: 'stamped' })
    @Family('f')
    class Stamped {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string' }) note?: string;
      @CellTimestamp() at?: Date;
    }
    expect(
      issuesOf(() => fromJson(Stamped, { id: 'a', at: null, note: null }, { for: 'update' })).map((i) => i.message),
    ).toEqual(['is a key part: an update changes columns only, the key names the row', 'null: leave the property out']);
    expect(fromJson(Stamped, { at: '2024-05-01T00:00:00Z' }, { for: 'update' })).toEqual({
      at: new Date('2024-05-01T00:00:00Z'),
    });
  });

  it('refuses a body that is no object, and a call without a purpose', () => {
    for (const bad of [null, [], 'x', 1])
      expect(() => fromJson(Sensor, bad, { for: 'create' })).toThrow('Sensor: the JSON body must be an object');
    expect(() => fromJson(Sensor, {}, {} as never)).toThrow("Sensor: fromJson() needs { for: 'create' | 'update' }");
  });

  it('keeps issues about hostile input short', () => {
    const key = 'k'.repeat(100_000);
    let caught: ValidationError | undefined;
    try {
      fromJson(Sensor, { [key]: 1, installed: 'x'.repeat(100_000) }, { for: 'create' });
    } catch (err) {
      caught = err as ValidationError;
    }
    expect(caught?.message.length).toBeLessThan(1_000);
    expect(caught?.issues.every((i) => i.property.length <= 80 && i.message.length <= 200)).toBe(true);
  });
});

describe('toJson', () => {
  @Entity({ table: 'odd' })
  @Family('f')
  class Odd {
    @KeyPart(0, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
    @KeyPart(1, { type: 'bigint' }) n!: bigint;
    @Column({ family: 'f', type: 'int' }) counter?: number | bigint;
    @Column({ family: 'f', type: 'float' }) ratio?: number;
    @Column({ family: 'f', type: 'date' }) when?: Date | null;
    @Column({ family: 'f', type: Place }) place?: Place;
    extra = 'not mapped';
  }

  it('writes a bigint counter as text, a non-finite float as text, and leaves out null and unmapped properties', () => {
    const odd = Object.assign(new Odd(), {
      at: new Date(0),
      n: 5n,
      counter: 2n ** 60n,
      ratio: -Infinity,
      when: null,
      place: Object.assign(new Place(), { city: 'Oslo' }),
    });
    expect(toJson(Odd, odd)).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      n: '5',
      counter: '1152921504606846976',
      ratio: '-Infinity',
      place: { city: 'Oslo' },
    });
  });

  it('writes only what a select read holds', () => {
    expect(toJson(Odd, { at: new Date(0), n: 1n, ratio: 0.5 })).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      n: '1',
      ratio: 0.5,
    });
  });

  it('lists the values that do not fit their declared types', () => {
    const odd = Object.assign(new Odd(), { at: new Date(Number.NaN), n: 1, when: '2024-01-01' });
    expect(issuesOf(() => toJson(Odd, odd as never)).map((i) => [i.path, i.message])).toEqual([
      ['Odd.at', 'expected a valid Date, got Invalid Date'],
      ['Odd.n', 'expected a bigint, got 1'],
      ['Odd.when', 'expected a valid Date, got "2024-01-01"'],
    ]);
    expect(() => toJson(Odd, null as never)).toThrow('Odd: toJson() takes an entity, got null');
  });
});
