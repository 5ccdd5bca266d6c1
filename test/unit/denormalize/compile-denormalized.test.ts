import { describe, expect, it } from 'vitest';
import {
  Column,
  Denormalized,
  Entity,
  Family,
  KeyPart,
  MetadataError,
  Salt,
  type Versioned,
} from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';

@Entity({ table: 'sensors' })
@Family('info')
class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'info', type: 'string' }) location?: string;
  @Column({ family: 'info', type: 'int' }) floor?: number;
  @Column({ family: 'info', type: 'string', versions: 3 }) history?: Versioned<string>;
}

@Entity({ table: 'sites' })
@Family('s')
class Site {
  @KeyPart(0, { type: 'string' }) region!: string;
  @KeyPart(1, { type: 'uint', width: 4 }) siteNo!: number;
  @Column({ family: 's', type: 'string' }) name?: string;
}

describe('@Denormalized compilation', () => {
  it('compiles the copy, its key map and a prefix strategy when the mapped parts lead the key', () => {
    @Entity({ table: 'readings' })
    @Family('m')
    class Reading {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) ts!: Date;
      @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
      @Column({ family: 'm', type: 'string' })
      location?: string;
    }
    const [d] = compileEntity(Reading).denormalized;
    expect(d).toMatchObject({
      property: 'location',
      source: Sensor,
      sourceName: 'Sensor',
      field: 'location',
      key: [{ source: 'id', dependent: 'sensorId' }],
      onMissingSource: 'error',
    });
    expect(d?.strategy).toEqual({
      kind: 'prefix',
      keyParts: ['sensorId'],
      buckets: 1,
      reason: "Reading's key starts with sensorId: a Sensor change rewrites one key prefix",
    });
    expect(Object.isFrozen(d?.key)).toBe(true);
  });

  it('explains the full scan when the key starts with another part', () => {
    @Entity({ table: 'readings' })
    @Family('m')
    class Reading {
      @KeyPart(0, { type: 'timestamp', format: 'epoch-ms' }) ts!: Date;
      @KeyPart(1, { type: 'string' }) sensorId!: string;
      @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
      @Column({ family: 'm', type: 'string' })
      location?: string;
    }
    expect(compileEntity(Reading).denormalized[0]?.strategy).toEqual({
      kind: 'full-scan',
      keyParts: [],
      buckets: 1,
      reason:
        "Reading's key starts with ts, not sensorId: propagation would scan the whole table; put sensorId first or pass { allowFullScan: true }",
    });
  });

  it('explains the full scan when the source key is held in a column', () => {
    @Entity({ table: 'alerts' })
    @Family('a')
    class Alert {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'a', type: 'string' }) sensorId?: string;
      @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
      @Column({ family: 'a', type: 'string' })
      location?: string;
    }
    const { strategy } = compileEntity(Alert).denormalized[0]!;
    expect(strategy.kind).toBe('full-scan');
    expect(strategy.reason).toBe(
      'Alert.sensorId is a column, not a key part: propagating a Sensor change would scan the whole table; make sensorId the leading key part of Alert or pass { allowFullScan: true }',
    );
  });

  it('counts the salt buckets a propagation reads', () => {
    @Entity({ table: 'salted' })
    @Salt({ buckets: 4 })
    @Family('m')
    class WholeKeySalt {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) ts!: Date;
      @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
      @Column({ family: 'm', type: 'string' })
      location?: string;
    }
    @Entity({ table: 'salted-on' })
    @Salt({ buckets: 4, on: ['sensorId'] })
    @Family('m')
    class SensorSalt {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) ts!: Date;
      @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
      @Column({ family: 'm', type: 'string' })
      location?: string;
    }
    const whole = compileEntity(WholeKeySalt).denormalized[0]!.strategy;
    expect(whole).toMatchObject({ kind: 'prefix', keyParts: ['sensorId'], buckets: 4 });
    expect(whole.reason).toBe(
      "WholeKeySalt's key starts with sensorId, but its salt also hashes ts: a Sensor change rewrites one key prefix in each of the 4 buckets",
    );
    expect(compileEntity(SensorSalt).denormalized[0]!.strategy).toMatchObject({ kind: 'prefix', buckets: 1 });
  });

  it('accepts literals in the key and multi-part source keys in any order of the leading parts', () => {
    @Entity({ table: 'visits' })
    @KeyPart(0, { literal: 'visit' })
    @Family('v')
    class Visit {
      @KeyPart(1, { type: 'uint', width: 4 }) site!: number;
      @KeyPart(2, { type: 'string' }) region!: string;
      @KeyPart(3, { type: 'timestamp' }) at!: Date;
      @Denormalized({ from: () => Site, key: { region: 'region', siteNo: 'site' }, field: 'name' })
      @Column({ family: 'v', type: 'string' })
      siteName?: string;
    }
    const [d] = compileEntity(Visit).denormalized;
    expect(d?.key).toEqual([
      { source: 'region', dependent: 'region' },
      { source: 'siteNo', dependent: 'site' },
    ]);
    expect(d?.strategy).toMatchObject({ kind: 'prefix', keyParts: ['site', 'region'], buckets: 1 });
  });

  it('keeps onMissingSource and inherits copies from a parent class', () => {
    @Entity({ table: 'base' })
    @Family('m')
    class Base {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'floor', onMissingSource: 'skip' })
      @Column({ family: 'm', type: 'int' })
      floor?: number;
    }
    class Child extends Base {}
    expect(compileEntity(Child).denormalized.map((d) => [d.property, d.onMissingSource])).toEqual([['floor', 'skip']]);
  });
});

describe('@Denormalized validation', () => {
  const copy = { from: () => Sensor, key: { id: 'sensorId' }, field: 'location' } as const;

  it('needs the property to be a plain column', () => {
    @Entity({ table: 't' })
    @Family('m')
    class NoColumn {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @Column({ family: 'm', type: 'string' }) other?: string;
      @Denormalized(copy) location?: string;
    }
    expectMetadataError(() => compileEntity(NoColumn), 'NoColumn.location', 'not a column', '@Column');
    @Entity({ table: 't' })
    @Family('m')
    class KeyCopy {
      @Denormalized({ from: () => Sensor, key: { id: 'id' }, field: 'location' })
      @KeyPart(0, { type: 'string' })
      id!: string;
      @Column({ family: 'm', type: 'string' }) other?: string;
    }
    expectMetadataError(() => compileEntity(KeyCopy), 'KeyCopy.id', 'a key part');
    @Entity({ table: 't' })
    @Family('m')
    class Versioned3 {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @Denormalized(copy) @Column({ family: 'm', type: 'string', versions: 3 }) location?: Versioned<string>;
    }
    expectMetadataError(() => compileEntity(Versioned3), 'Versioned3.location', 'versioned', 'remove versions');
  });

  it('needs a source class that compiles', () => {
    @Entity({ table: 't' })
    @Family('m')
    class NotAThunk {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @Denormalized({ ...copy, from: Sensor as unknown as () => typeof Sensor })
      @Column({ family: 'm', type: 'string' })
      location?: string;
    }
    expectMetadataError(
      () => compileEntity(NotAThunk),
      'NotAThunk.location',
      'from must be a function returning the source class',
    );
    class Plain {
      id!: string;
      location?: string;
    }
    @Entity({ table: 't' })
    @Family('m')
    class BadSource {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @Denormalized({ ...copy, from: () => Plain }) @Column({ family: 'm', type: 'string' }) location?: string;
    }
    expectMetadataError(
      () => compileEntity(BadSource),
      'BadSource.location',
      'source Plain does not compile',
      'not decorated with @Entity',
      'fix Plain first',
    );
  });

  it('needs field to be a plain column of the source, of the same type', () => {
    const make = (field: string, type: 'string' | 'int') => {
      @Entity({ table: 't' })
      @Family('m')
      class Copy {
        @KeyPart(0, { type: 'string' }) sensorId!: string;
        @Denormalized({ ...copy, field: field as 'location' }) @Column({ family: 'm', type }) value?: unknown;
      }
      return Copy;
    };
    expectMetadataError(
      () => compileEntity(make('nope', 'string')),
      'Copy.value',
      'field "nope" of Sensor is not a column',
      'location, floor',
    );
    expectMetadataError(() => compileEntity(make('id', 'string')), 'field "id" of Sensor is a key part, not a column');
    expectMetadataError(() => compileEntity(make('history', 'string')), 'field "history" of Sensor is versioned');
    expectMetadataError(
      () => compileEntity(make('location', 'int')),
      "Copy.value: is a 'int' column but copies Sensor.location, a 'string' column",
      "type: 'string'",
    );
  });

  it('needs a key map covering every source key part with properties of the same type', () => {
    const make = (key: unknown) => {
      @Entity({ table: 't' })
      @Family('m')
      class Visit {
        @KeyPart(0, { type: 'string' }) region!: string;
        @KeyPart(1, { type: 'uint', width: 4 }) site!: number;
        @Column({ family: 'm', type: 'string', versions: 2 }) old?: Versioned<string>;
        @Column({ family: 'm', type: 'string' }) label?: string;
        @Denormalized({ from: () => Site, key: { region: 'region', siteNo: 'site' }, field: 'name' })
        @Column({ family: 'm', type: 'string' })
        other?: string;
        @Denormalized({ from: () => Site, key: key as never, field: 'name' })
        @Column({ family: 'm', type: 'string' })
        siteName?: string;
      }
      return Visit;
    };
    expectMetadataError(() => compileEntity(make('region')), 'Visit.siteName', 'must map each key part of Site');
    expectMetadataError(
      () => compileEntity(make({ region: 'region', siteNo: 'site', x: 'site' })),
      'names "x", which is not a key part of Site (region, siteNo)',
    );
    expectMetadataError(() => compileEntity(make({ region: 'region' })), "does not cover Site's key part siteNo");
    expectMetadataError(
      () => compileEntity(make({ region: 'region', siteNo: 'nope' })),
      'maps Site.siteNo to "nope", which is neither a key part nor a column',
    );
    expectMetadataError(
      () => compileEntity(make({ region: 'old', siteNo: 'site' })),
      'maps Site.region to "old", which is a versioned column',
    );
    expectMetadataError(
      () => compileEntity(make({ region: 'other', siteNo: 'site' })),
      'maps Site.region to "other", which is itself a @Denormalized copy',
    );
    expectMetadataError(
      () => compileEntity(make({ region: 'region', siteNo: 'label' })),
      'maps Site.siteNo (an integer key part) to Visit.label, which holds a string',
    );
    expectMetadataError(
      () => compileEntity(make({ region: 'region', siteNo: 7 })),
      'maps Site.siteNo to 7, which is not a property name',
    );
  });

  it('tells bytes, float and boolean key parts apart from each other and from other column types', () => {
    @Entity({ table: 'kinds' })
    @Family('m')
    class Device {
      @KeyPart(0, { type: 'bytes' }) serial!: Buffer;
      @KeyPart(1, { type: 'float' }) version!: number;
      @KeyPart(2, { type: 'boolean' }) beta!: boolean;
      @Column({ family: 'm', type: 'string' }) model?: string;
    }
    const make = (serial: string, version: string, beta: string) => {
      @Entity({ table: 'kinds-dep' })
      @Family('m')
      class Event {
        @KeyPart(0, { type: 'string' }) id!: string;
        @Column({ family: 'm', type: 'bytes' }) serialBytes?: Buffer;
        @Column({ family: 'm', type: 'float' }) versionNo?: number;
        @Column({ family: 'm', type: 'int' }) versionInt?: number;
        @Column({ family: 'm', type: 'boolean' }) isBeta?: boolean;
        @Column({ family: 'm', type: 'json' }) blob?: unknown;
        @Denormalized({ from: () => Device, key: { serial, version, beta }, field: 'model' })
        @Column({ family: 'm', type: 'string' })
        model?: string;
      }
      return Event;
    };
    expect(compileEntity(make('serialBytes', 'versionNo', 'isBeta')).denormalized[0]?.key).toEqual([
      { source: 'serial', dependent: 'serialBytes' },
      { source: 'version', dependent: 'versionNo' },
      { source: 'beta', dependent: 'isBeta' },
    ]);
    expectMetadataError(
      () => compileEntity(make('isBeta', 'versionNo', 'serialBytes')),
      'maps Device.serial (a bytes key part) to Event.isBeta, which holds a boolean',
    );
    expectMetadataError(
      () => compileEntity(make('blob', 'versionNo', 'isBeta')),
      'maps Device.serial (a bytes key part) to Event.blob, which holds a json value',
    );
    // A JS number either way, but an int column cannot hold 1.5: a float key part needs a float column.
    expectMetadataError(
      () => compileEntity(make('serialBytes', 'versionInt', 'isBeta')),
      'maps Device.version (a float key part) to Event.versionInt, which holds an integer',
    );
  });

  it('rejects an unknown onMissingSource and duplicate decorators', () => {
    @Entity({ table: 't' })
    @Family('m')
    class BadMissing {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @Denormalized({ ...copy, onMissingSource: 'ignore' as 'skip' })
      @Column({ family: 'm', type: 'string' })
      location?: string;
    }
    expectMetadataError(() => compileEntity(BadMissing), 'onMissingSource "ignore" is not known');
    @Entity({ table: 't' })
    @Family('m')
    class Twice {
      @KeyPart(0, { type: 'string' }) sensorId!: string;
      @Denormalized(copy) @Denormalized(copy) @Column({ family: 'm', type: 'string' }) location?: string;
    }
    expectMetadataError(
      () => compileEntity(Twice),
      'Twice.location',
      'declares the same @Denormalized "location" twice',
    );
    expect(() => Denormalized(null as never)({}, 'x')).toThrow(MetadataError);
  });

  it('rejects denormalization cycles, through other entities and on itself', () => {
    @Entity({ table: 'a' })
    @Family('f')
    class A {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string' }) name?: string;
      @Denormalized({ from: () => B, key: { id: 'id' }, field: 'name' })
      @Column({ family: 'f', type: 'string' })
      bName?: string;
    }
    @Entity({ table: 'b' })
    @Family('f')
    class B {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string' }) name?: string;
      @Denormalized({ from: () => A, key: { id: 'id' }, field: 'name' })
      @Column({ family: 'f', type: 'string' })
      aName?: string;
    }
    expectMetadataError(
      () => compileEntity(A),
      'B.aName: copies from A, which closes a denormalization cycle (A → B → A)',
      'copies must flow one way',
    );
    expectMetadataError(
      () => compileEntity(B),
      'A.bName: copies from B, which closes a denormalization cycle (B → A → B)',
    );
    @Entity({ table: 'c' })
    @Family('f')
    class Category {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string' }) parentId?: string;
      @Column({ family: 'f', type: 'string' }) name?: string;
      @Denormalized({ from: () => Category, key: { id: 'parentId' }, field: 'name' })
      @Column({ family: 'f', type: 'string' })
      parentName?: string;
    }
    expectMetadataError(
      () => compileEntity(Category),
      'Category.parentName: copies from Category, which closes a denormalization cycle (Category → Category)',
    );
  });
});

describe('@Denormalized typing', () => {
  it('checks field and key names against the source class at compile time (tsc)', () => {
    const ok = Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' });
    // @ts-expect-error: 'place' is not a property of Sensor
    const badField = Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'place' });
    // @ts-expect-error: 'sensor' is not a property of Sensor
    const badKey = Denormalized({ from: () => Sensor, key: { sensor: 'sensorId' }, field: 'location' });
    expect([ok, badField, badKey].every((d) => typeof d === 'function')).toBe(true);
  });
});
