import { describe, expect, it } from 'vitest';
import { preview } from '../../../src/errors/bigtable-mapper-error.js';
import { ValidationError } from '../../../src/errors/errors.js';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { Repository } from '../../../src/repository/repository.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'counters' })
@Family('c')
class Counter {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'c', type: 'int' }) hits?: number;
}

describe('preview() of numbers JSON cannot spell', () => {
  it.each([
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
  ])('prints %s as %s, not null', (value, text) => {
    expect(preview(value)).toBe(text);
  });

  it('prints them as words inside arrays and objects too', () => {
    expect(preview([1, Number.NaN, Number.NEGATIVE_INFINITY])).toBe('[1,NaN,-Infinity]');
    expect(preview({ amount: Number.POSITIVE_INFINITY, label: 'Infinity' })).toBe(
      '{"amount":Infinity,"label":"Infinity"}',
    );
    expect(preview({ a: null, b: 2 })).toBe('{"a":null,"b":2}');
  });

  it('prints finite numbers, null and other values as before', () => {
    expect(preview(1.5)).toBe('1.5');
    expect(preview(-3)).toBe('-3');
    expect(preview(null)).toBe('null');
    expect(preview('NaN')).toBe('"NaN"');
    expect(preview(undefined)).toBe('undefined');
    expect(preview(10n)).toBe('10n');
  });

  it('names the bad increment amount in the error message', async () => {
    const repo = new Repository(new FakeDriver(), compileEntity(Counter));
    for (const [amount, text] of [
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [Number.NEGATIVE_INFINITY, '-Infinity'],
    ] as const) {
      const error = await repo.increment({ id: 'c1' }, 'hits', amount).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain(`Counter.hits: increment amount ${text} must be`);
    }
  });
});
