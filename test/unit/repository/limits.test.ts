import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { Repository } from '../../../src/repository/repository.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'limits' })
@Family('f')
class Metric {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'f', type: 'int', versions: 200_000 }) v?: { value: number; timestamp: Date }[];
}

describe('limits checked before anything is sent', () => {
  it('page() rejects a page size that is not a positive integer', async () => {
    const driver = new FakeDriver();
    const repo = new Repository(driver, compileEntity(Metric));
    for (const limit of [0, -1, 1.5]) await expect(repo.page({ limit })).rejects.toBeInstanceOf(ValidationError);
    expect(driver.callsOf('readRows')).toHaveLength(0);
  });

  it('a row write over 100,000 cell mutations is a ValidationError', () => {
    const schema = compileEntity(Metric);
    const versions = (n: number) => Array.from({ length: n }, (_, i) => ({ value: i, timestamp: new Date(i + 1) }));
    expect(compileSave(schema, { id: 'a', v: versions(100_000) }).mutations).toHaveLength(100_000);
    expect(() => compileSave(schema, { id: 'a', v: versions(100_001) })).toThrow(/exceed Bigtable's 100000/);
  });
});
