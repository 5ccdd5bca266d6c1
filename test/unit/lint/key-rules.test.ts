import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { lintEntity } from '../../../src/tools.js';
import { MetadataError } from '../../../src/errors/errors.js';
import { SensorFirstReading, TimeFirstReading } from './seed-001-entities.js';

const codes = (entity: Function) => lintEntity(entity as never).map((f) => f.code);

describe('leading-timestamp', () => {
  it("flags seed 001's bad key, timestamp first, as an error naming the property and the fix", () => {
    const findings = lintEntity(TimeFirstReading);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      code: 'leading-timestamp',
      severity: 'error',
      entity: 'TimeFirstReading',
      property: 'ts',
    });
    expect(findings[0]?.message).toContain('TimeFirstReading.ts: the row key starts with a timestamp');
    expect(findings[0]?.principle).toMatch(/^Entity id first, time after it: /);
    expect(findings[0]?.principle).toContain('sensor123#2023-05-01T12:00:00Z');
    expect(findings[0]?.fix).toContain('@Salt({ buckets: 8 })');
  });

  it("passes seed 001's good key, sensor first, with its families: no finding at all", () => {
    expect(lintEntity(SensorFirstReading)).toEqual([]);
  });

  it('sees through a constant prefix: event#<time> is still time-ordered', () => {
    @Entity({ table: 't' })
    @KeyPart(0, { literal: 'event' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Event {
      @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
    }
    const [finding] = lintEntity(Event);
    expect(finding).toMatchObject({ code: 'leading-timestamp', severity: 'error', property: 'at' });
    expect(finding?.message).toContain('right after its constant prefix');
  });

  it('flags a leading reversed timestamp too: it moves the hotspot to the start', () => {
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Latest {
      @KeyPart(0, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
    }
    const [finding] = lintEntity(Latest);
    expect(finding).toMatchObject({ code: 'leading-timestamp', severity: 'error' });
    expect(finding?.message).toContain('reversed timestamp');
  });

  it('warns on a leading number, which may be a sequence', () => {
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Order {
      @KeyPart(0, { type: 'uint' }) orderId!: number;
    }
    expect(lintEntity(Order)).toMatchObject([{ code: 'leading-timestamp', severity: 'warning', property: 'orderId' }]);
    expect(lintEntity(Order)[0]?.message).toBe(
      'Order.orderId: the row key starts with a uint (orderId): if its values are assigned in sequence, like ids or ' +
        'counters, new rows always go to the end of the key space and one tablet takes every write',
    );
  });

  it('warns on a leading float like any number, and on a leading boolean with its own reason', () => {
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Scored {
      @KeyPart(0, { type: 'float' }) score!: number;
    }
    expect(lintEntity(Scored)).toMatchObject([{ code: 'leading-timestamp', severity: 'warning', property: 'score' }]);
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Flagged {
      @KeyPart(0, { type: 'boolean' }) active!: boolean;
      @KeyPart(1, { type: 'string', maxLength: 64 }) id!: string;
    }
    const [finding] = lintEntity(Flagged);
    expect(finding).toMatchObject({ code: 'leading-timestamp', severity: 'warning', property: 'active' });
    expect(finding?.message).toContain(
      'Flagged.active: the row key starts with a boolean (active), which has only two values',
    );
    expect(finding?.fix).toContain("@KeyPart(1, { type: 'boolean' }) active");
  });

  it('passes a leading bytes part, like a leading string', () => {
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Blob {
      @KeyPart(0, { type: 'bytes', maxLength: 32 }) digest!: Buffer;
    }
    expect(codes(Blob)).toEqual([]);
  });

  it('accepts a leading timestamp once the key is salted over more than one bucket', () => {
    @Entity({ table: 't' })
    @Salt({ buckets: 8 })
    @Family('d', { gc: { maxVersions: 1 } })
    class Salted {
      @KeyPart(0, { type: 'timestamp' }) at!: Date;
    }
    @Entity({ table: 't' })
    @Salt({ buckets: 1 })
    @Family('d', { gc: { maxVersions: 1 } })
    class OneBucket {
      @KeyPart(0, { type: 'timestamp' }) at!: Date;
    }
    expect(codes(Salted)).toEqual([]);
    expect(codes(OneBucket)).toEqual(['leading-timestamp']);
  });
});

describe('unbounded-string-key', () => {
  it('warns on each string key part without maxLength, and not on bounded ones', () => {
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Page {
      @KeyPart(0, { type: 'string' }) site!: string;
      @KeyPart(1, { type: 'string', maxLength: 200 }) path!: string;
      @KeyPart(2, { type: 'string' }) lang!: string;
    }
    const findings = lintEntity(Page);
    expect(findings.map((f) => [f.code, f.severity, f.property])).toEqual([
      ['unbounded-string-key', 'warning', 'site'],
      ['unbounded-string-key', 'warning', 'lang'],
    ]);
    expect(findings[0]?.fix).toBe("declare the longest value: @KeyPart(0, { type: 'string', maxLength: 64 }) site");
  });
});

describe('unbounded bytes key parts', () => {
  it('warn without maxLength, and count two key bytes a value byte towards the 4 KiB', () => {
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Blob {
      @KeyPart(0, { type: 'bytes' }) digest!: Buffer;
    }
    expect(lintEntity(Blob)).toMatchObject([
      {
        code: 'unbounded-string-key',
        property: 'digest',
        fix: "declare the longest value: @KeyPart(0, { type: 'bytes', maxLength: 32 }) digest",
      },
    ]);
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Wide {
      @KeyPart(0, { type: 'bytes', maxLength: 2000 }) a!: Buffer;
      @KeyPart(1, { type: 'bytes', maxLength: 48 }) b!: Buffer;
    }
    // 2000·2 + "#" + 48·2 = 4097
    expect(lintEntity(Wide)).toMatchObject([{ code: 'key-too-long', severity: 'error' }]);
    expect(lintEntity(Wide)[0]?.message).toContain('4097 bytes');
  });
});

describe('key-too-long', () => {
  it('errors when the widest key the declarations allow is over 4096 bytes, counting 3 bytes a character', () => {
    @Entity({ table: 't' })
    @Salt({ buckets: 8 })
    @Family('d', { gc: { maxVersions: 1 } })
    class Doc {
      @KeyPart(0, { type: 'string', maxLength: 1000 }) a!: string;
      @KeyPart(1, { type: 'string', maxLength: 400 }) b!: string;
    }
    const [finding] = lintEntity(Doc);
    // salt "07#" (3) + 1000·3 + "#" + 400·3 = 4204
    expect(finding).toMatchObject({ code: 'key-too-long', severity: 'error', property: 'a' });
    expect(finding?.message).toContain('4204 bytes');
  });

  it('passes at exactly 4096 bytes', () => {
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Doc {
      @KeyPart(0, { type: 'string', maxLength: 1360 }) a!: string;
      @KeyPart(1, { type: 'uint', width: 15 }) n!: number;
    }
    // 1360·3 + "#" + 15 = 4096; the uint leads nothing, so only this rule could fire
    expect(codes(Doc)).toEqual([]);
  });
});

describe('reverse timestamp as a cell timestamp', () => {
  it('cannot be declared: @CellTimestamp takes no options, and compile rejects it on a (descending) key part', () => {
    expect(CellTimestamp.length).toBe(0);
    @Entity({ table: 't' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Event {
      @KeyPart(0, { type: 'string', maxLength: 8 }) id!: string;
      @CellTimestamp()
      @KeyPart(1, { type: 'timestamp', format: 'epoch-ms', descending: true })
      at!: Date;
      @Column({ family: 'd', type: 'string' }) v?: string;
    }
    expect(() => compileEntity(Event)).toThrow(MetadataError);
    expect(() => compileEntity(Event)).toThrow('@CellTimestamp cannot also be a key part');
  });
});
