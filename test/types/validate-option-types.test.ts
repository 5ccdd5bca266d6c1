import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type ColumnOptions, type KeyPartOptions, type ValidationIssue, ValidationError } from '../../src/index.js';

describe('the validate option', () => {
  it('takes zod, valibot and ArkType schemas, on columns and key parts', () => {
    const column: ColumnOptions[] = [
      { family: 'f', type: 'string', validate: z.string().email() },
      { family: 'f', type: 'int', validate: v.pipe(v.number(), v.integer()) },
      { family: 'f', type: 'string', validate: type('string.email') },
    ];
    const key: KeyPartOptions = { type: 'string', validate: z.string().uuid() };
    expectTypeOf(column).toBeArray();
    expectTypeOf(key.validate).not.toBeAny();
  });

  it('takes any validator of the Standard Schema specification', () => {
    expectTypeOf<StandardSchemaV1<string>>().toExtend<NonNullable<ColumnOptions['validate']>>();
    expectTypeOf<StandardSchemaV1<unknown, number>>().toExtend<NonNullable<KeyPartOptions['validate']>>();
  });

  it('takes nothing else', () => {
    // @ts-expect-error a plain function is no Standard Schema validator
    const fn: ColumnOptions = { family: 'f', type: 'string', validate: (s: string) => s.length > 0 };
    // @ts-expect-error neither is a regular expression
    const re: KeyPartOptions = { type: 'string', validate: /^[a-z]+$/ };
    expectTypeOf(fn).toEqualTypeOf<ColumnOptions>();
    expectTypeOf(re).toEqualTypeOf<KeyPartOptions>();
  });

  it('gives a ValidationError typed issues', () => {
    expectTypeOf(new ValidationError('x').issues).toEqualTypeOf<readonly ValidationIssue[]>();
    expectTypeOf<ValidationIssue>().toEqualTypeOf<{
      readonly property: string;
      readonly path: string;
      readonly message: string;
    }>();
  });
});
