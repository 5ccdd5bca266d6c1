import * as v from 'valibot';
import { z } from 'zod';
import { Column, Entity, Family, KeyPart } from '../src/index.js';
import type { StandardValidator } from '../src/model/standard-schema.js';
import { FAMILY, type WideRowClass } from './entities.js';

/** The validators of one library for the wide row's columns: a bounded string, a non-negative integer, a finite number. */
interface Validators {
  readonly text: StandardValidator;
  readonly count: StandardValidator;
  readonly score: StandardValidator;
}

const LIBRARIES: Readonly<Record<'zod' | 'valibot', Validators>> = {
  zod: { text: z.string().max(64), count: z.number().int().nonnegative(), score: z.number().finite() },
  valibot: {
    text: v.pipe(v.string(), v.maxLength(64)),
    count: v.pipe(v.number(), v.integer(), v.minValue(0)),
    score: v.pipe(v.number(), v.finite()),
  },
};

/**
 * The wide row with a Standard Schema validator of `library` on each of its
 * ten columns, for the CPU cost of validation on write (`compileSave` runs
 * them first).
 * @example `const Validated = defineValidatedWideRow('cpu-zod', 'zod');`
 */
export function defineValidatedWideRow(table: string, library: keyof typeof LIBRARIES): WideRowClass {
  const { text, count, score } = LIBRARIES[library];
  @Entity({ table })
  @Family(FAMILY)
  @KeyPart(0, { literal: 'row' })
  class ValidatedWideRow {
    @KeyPart(1, { type: 'uint', width: 10 }) id!: number;
    @Column({ family: FAMILY, type: 'string', validate: text }) s0!: string;
    @Column({ family: FAMILY, type: 'string', validate: text }) s1!: string;
    @Column({ family: FAMILY, type: 'string', validate: text }) s2!: string;
    @Column({ family: FAMILY, type: 'string', validate: text }) s3!: string;
    @Column({ family: FAMILY, type: 'string', validate: text }) s4!: string;
    @Column({ family: FAMILY, type: 'string', validate: text }) s5!: string;
    @Column({ family: FAMILY, type: 'string', validate: text }) s6!: string;
    @Column({ family: FAMILY, type: 'string', validate: text }) s7!: string;
    @Column({ family: FAMILY, type: 'int', validate: count }) count!: number;
    @Column({ family: FAMILY, type: 'float', validate: score }) score!: number;
  }
  return ValidatedWideRow;
}
