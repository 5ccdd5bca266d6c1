import 'reflect-metadata';
import { Column, Entity, Family, KeyPart, Salt } from '../src/index.js';
import type { SaltHashPreset } from '../src/model/declarations.js';

/** The ten columns every wide bench row has (eight strings, an int, a float). @example `const r: WideColumns = {...}` */
export interface WideColumns {
  s0: string;
  s1: string;
  s2: string;
  s3: string;
  s4: string;
  s5: string;
  s6: string;
  s7: string;
  count: number;
  score: number;
}

/** A wide row as a plain object: its sequence number plus the ten columns. @example `wideValues(7).count // 7` */
export interface WideValues extends WideColumns {
  id: number;
}

/** A wide-row entity class (unsalted key `row#<id, 10 digits>`). @example `new (defineWideRow('t'))()` */
export type WideRowClass = new () => WideValues;

/** A salted-event entity class (key `<bucket>#event#<id, 10 digits>`, md5 buckets, 8 unless asked otherwise). @example `new (defineSaltedEvent('t'))()` */
export type SaltedEventClass = new () => WideValues;

/** A small-row entity class (key `m#<id, 10 digits>`, one 16-byte string column). @example `new (defineSmallRow('t'))()` */
export type SmallRowClass = new () => { id: number; v: string };

/** The column family every bench table has. @example `FAMILY // 'f'` */
export const FAMILY = 'f';

/** Defines the wide entity bound to `table` (one class per table, since `@Entity` names it). @example `const Wide = defineWideRow(tableId);` */
export function defineWideRow(table: string): WideRowClass {
  @Entity({ table })
  @Family(FAMILY)
  @KeyPart(0, { literal: 'row' })
  class WideRow extends WideBase {
    @KeyPart(1, { type: 'uint', width: 10 }) id!: number;
  }
  return WideRow;
}

/**
 * Defines the salted entity (md5, the seed 002 layout `07#event#…`; 8 buckets
 * by default, 32 or 64 for the bucket-scaling workload) bound to `table`.
 * @example `const Events = defineSaltedEvent(tableId); const Events64 = defineSaltedEvent(otherTableId, 64);`
 */
export function defineSaltedEvent(table: string, buckets = 8): SaltedEventClass {
  @Entity({ table })
  @Family(FAMILY)
  @Salt({ buckets })
  @KeyPart(0, { literal: 'event' })
  class SaltedEvent extends WideBase {
    @KeyPart(1, { type: 'uint', width: 10 }) id!: number;
  }
  return SaltedEvent;
}

/** Defines the small-row entity of the memory check bound to `table`. @example `const Small = defineSmallRow(tableId);` */
export function defineSmallRow(table: string): SmallRowClass {
  @Entity({ table })
  @Family(FAMILY)
  @KeyPart(0, { literal: 'm' })
  class SmallRow {
    @KeyPart(1, { type: 'uint', width: 10 }) id!: number;
    @Column({ family: FAMILY, type: 'string' }) v!: string;
  }
  return SmallRow;
}

/** Defines an entity keyed `event#<seq, 10 digits>` salted with `hash` over `buckets`, for the evenness workload. @example `defineEvennessEntity('md5', 16)` */
export function defineEvennessEntity(hash: SaltHashPreset, buckets: number): new () => { seq: number } {
  @Entity({ table: 'evenness' })
  @Salt({ buckets, hash })
  @KeyPart(0, { literal: 'event' })
  class EvennessEvent {
    @KeyPart(1, { type: 'uint', width: 10 }) seq!: number;
  }
  return EvennessEvent;
}

class WideBase implements WideColumns {
  @Column({ family: FAMILY, type: 'string' }) s0!: string;
  @Column({ family: FAMILY, type: 'string' }) s1!: string;
  @Column({ family: FAMILY, type: 'string' }) s2!: string;
  @Column({ family: FAMILY, type: 'string' }) s3!: string;
  @Column({ family: FAMILY, type: 'string' }) s4!: string;
  @Column({ family: FAMILY, type: 'string' }) s5!: string;
  @Column({ family: FAMILY, type: 'string' }) s6!: string;
  @Column({ family: FAMILY, type: 'string' }) s7!: string;
  @Column({ family: FAMILY, type: 'int' }) count!: number;
  @Column({ family: FAMILY, type: 'float' }) score!: number;
}
