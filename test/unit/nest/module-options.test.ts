import { Test } from '@nestjs/testing';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors/index.js';
import { BigtableModule } from '../../../src/nest/index.js';
import { FakeDriver } from '../../support/fake-driver.js';

describe('BigtableModule options', () => {
  it('forRoot rejects an unknown option at once, naming the closest one', () => {
    expect(() => BigtableModule.forRoot({ driver: new FakeDriver(), snyc: true } as never)).toThrow(ValidationError);
    expect(() => BigtableModule.forRoot({ driver: new FakeDriver(), snyc: true } as never)).toThrow(
      'BigtableModule.forRoot: unknown option "snyc". Did you mean "sync"? Fix: rename it to "sync"',
    );
    expect(() => BigtableModule.forRoot({ emulatorHost: '127.0.0.1:8086', instanse: 'dev' } as never)).toThrow(
      /unknown option "instanse"\. Did you mean "instance"\?/,
    );
  });

  it('forRootAsync rejects an unknown option of its own and of what its factory returns', async () => {
    expect(() => BigtableModule.forRootAsync({ useFactroy: () => ({}) } as never)).toThrow(
      'BigtableModule.forRootAsync: unknown option "useFactroy". Did you mean "useFactory"? Fix: rename it to "useFactory"',
    );
    const module = Test.createTestingModule({
      imports: [
        BigtableModule.forRootAsync({ useFactory: () => ({ driver: new FakeDriver(), entites: [] }) as never }),
      ],
    });
    await expect(module.compile()).rejects.toThrow(
      'BigtableModule.forRootAsync useFactory: unknown option "entites". Did you mean "entities"? Fix: rename it to "entities"',
    );
  });

  it('accepts the mapper options plus sync', async () => {
    const app = await Test.createTestingModule({
      imports: [BigtableModule.forRoot({ driver: new FakeDriver(), entities: [], timeouts: {}, sync: false })],
    }).compile();
    await app.close();
  });
});
