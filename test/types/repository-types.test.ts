import { describe, expectTypeOf, it } from 'vitest';
import {
  Column,
  Entity,
  Family,
  KeyPart,
  KeyParts,
  range,
  type EntityKey,
  type KeyWhere,
  type Repository,
  type ScanQuery,
  type Versioned,
} from '../../src/index.js';

@Entity({ table: 'typed-readings' })
@Family('m')
class Reading {
  declare [KeyParts]?: 'sensorId' | 'ts';
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'm', type: 'float' }) temperature?: number;
  @Column({ family: 'm', type: 'int', versions: 3 }) count?: Versioned<number>;
}

@Entity({ table: 'untyped' })
class Loose {
  @KeyPart(0, { type: 'string' }) id!: string;
  name?: string;
}

/** Compiled by `tsc --noEmit` (part of `npm test`): every `@ts-expect-error` must be an error. */
function typeChecks(repo: Repository<Reading>, loose: Repository<Loose>): void {
  void repo.findOne({ sensorId: 's1', ts: new Date() });
  // @ts-expect-error a key must name every declared key part
  void repo.findOne({ sensorId: 's1' });
  // @ts-expect-error a non-key property is not a key
  void repo.delete({ sensorId: 's1', ts: new Date(), temperature: 1 });
  // @ts-expect-error key values keep their types
  void repo.findOne({ sensorId: 1, ts: new Date() });
  void repo.iterate({ where: { sensorId: 's1', ts: range({ gte: new Date(), lt: new Date() }) } });
  // @ts-expect-error a plain object is never a range: ranges come from range()
  void repo.iterate({ where: { sensorId: 's1', ts: { gte: new Date(), lt: new Date() } } });
  // @ts-expect-error scans select rows by key parts only
  void repo.iterate({ where: { temperature: 20 } });
  // @ts-expect-error range bounds keep the key part's type
  void repo.iterate({ where: { sensorId: 's1', ts: range({ gte: 'yesterday' }) } });
  void repo.findOne({ sensorId: 's1', ts: new Date() }, { select: ['temperature', 'count'] });
  // @ts-expect-error select names properties of the entity
  void repo.findOne({ sensorId: 's1', ts: new Date() }, { select: ['humidity'] });
  void repo.increment({ sensorId: 's1', ts: new Date() }, 'temperature');
  // @ts-expect-error increment names a property of the entity
  void repo.increment({ sensorId: 's1', ts: new Date() }, 'hits');
  void repo.update({ sensorId: 's1', ts: new Date() }, { temperature: null });
  // @ts-expect-error update values keep their types
  void repo.update({ sensorId: 's1', ts: new Date() }, { temperature: 'warm' });
  void repo.saveIf(new Reading(), { column: 'temperature', equals: 20 });
  // @ts-expect-error conditions name properties of the entity
  void repo.saveIf(new Reading(), { column: 'pressure', equals: 1 });
  void loose.findOne({ id: 'a' });
  // @ts-expect-error without a KeyParts marker keys still only take the entity's properties
  void loose.findOne({ idd: 'a' });
}

describe('typed repository API', () => {
  it('derives key and query types from the entity', () => {
    expectTypeOf<EntityKey<Reading>>().toEqualTypeOf<{ sensorId: string; ts: Date }>();
    expectTypeOf<keyof KeyWhere<Reading>>().toEqualTypeOf<'sensorId' | 'ts'>();
    expectTypeOf<ScanQuery<Reading>['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<EntityKey<Loose>>().toEqualTypeOf<{ id: string; name?: string }>();
    expectTypeOf(typeChecks).toBeFunction();
  });
});
