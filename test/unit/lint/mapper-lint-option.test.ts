import { afterEach, describe, expect, it, vi } from 'vitest';
import { MetadataError, ValidationError } from '../../../src/errors/index.js';
import { BigtableMapper } from '../../../src/repository/mapper.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { SensorFirstReading, TimeFirstReading } from './seed-001-entities.js';

afterEach(() => vi.restoreAllMocks());

describe('the mapper lint option', () => {
  it('is off by default: a bad key design registers silently', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    new BigtableMapper({ driver: new FakeDriver(), entities: [TimeFirstReading] });
    expect(warn).not.toHaveBeenCalled();
  });

  it('warn emits each finding as a process warning with the rule as its code', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    new BigtableMapper({ driver: new FakeDriver(), entities: [TimeFirstReading, SensorFirstReading], lint: 'warn' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('the row key starts with a timestamp'), {
      type: 'BigtableMapperLint',
      code: 'leading-timestamp',
    });
    expect(warn.mock.calls.every(([message]) => String(message).startsWith('TimeFirstReading'))).toBe(true);
  });

  it('error throws a MetadataError naming the rule and the fix, and passes a good design', () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    expect(() => new BigtableMapper({ driver: new FakeDriver(), entities: [TimeFirstReading], lint: 'error' })).toThrow(
      MetadataError,
    );
    expect(() => new BigtableMapper({ driver: new FakeDriver(), entities: [TimeFirstReading], lint: 'error' })).toThrow(
      /TimeFirstReading\.ts: fails lint rule leading-timestamp: .*Fix: put an identifier/,
    );
    expect(
      () => new BigtableMapper({ driver: new FakeDriver(), entities: [SensorFirstReading], lint: 'error' }),
    ).not.toThrow();
    expect(() => new BigtableMapper({ driver: new FakeDriver(), lint: 'strict' as never })).toThrow(ValidationError);
  });
});
