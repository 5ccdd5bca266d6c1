import { describe, expect, it, vi } from 'vitest';
import {
  BigtableMapperError,
  DeadlineExceededError,
  DriverError,
  EntityNotFoundError,
  ErrorCode,
  KeyEncodingError,
  MetadataError,
  OperationAbortedError,
  PartialWriteError,
  SchemaSyncError,
  TableNotFoundError,
  UnreachableError,
  ValidationError,
  ValueEncodingError,
  type WriteFailure,
} from '../../../src/index.js';
import { bigtableMapperErrorHandler, httpStatusOf, toHttpError } from '../../../src/express.js';

const grpc = (code: number, message = 'boom') => Object.assign(new Error(message), { code });

describe('httpStatusOf', () => {
  it.each([
    ['validation', new ValidationError('Reading: bad limit'), 400],
    ['key encoding', new KeyEncodingError('Reading', 'sensorId', '', 'must not be empty'), 400],
    ['value encoding', new ValueEncodingError('Reading', 'count', 1.5, 'is not an int'), 400],
    ['not found', new EntityNotFoundError('Reading', { sensorId: 's1' }, 's1'), 404],
    ['deadline', new DeadlineExceededError('Reading.findOne', 2_000), 504],
    ['aborted', new OperationAbortedError('Reading.scan', 'the mapper was closed'), 503],
    ['unreachable', new UnreachableError('127.0.0.1:1', 'nothing listens'), 503],
    ['table missing', new TableNotFoundError('mutateRow "readings"', 'readings', grpc(5)), 500],
    ['driver unavailable', new DriverError('readRows', grpc(14)), 503],
    ['driver resource exhausted', new DriverError('readRows', grpc(8)), 503],
    ['driver deadline', new DriverError('readRows', grpc(4)), 504],
    ['driver internal', new DriverError('readRows', grpc(13)), 500],
    ['metadata', new MetadataError('Reading', 'x', 'bad', 'fix it'), 500],
    ['schema sync', new SchemaSyncError('sync failed', { table: 't' }), 500],
  ])('%s → %i', (_name, error, status) => {
    expect(httpStatusOf(error)).toBe(status);
  });

  it('maps by code, so an error from another copy of the library maps the same', () => {
    const foreign = Object.assign(new Error('Reading: bad'), { code: ErrorCode.Validation, details: {} });
    expect(httpStatusOf(foreign)).toBe(400);
    expect(httpStatusOf(new Error('plain'))).toBe(500);
  });
});

describe('toHttpError', () => {
  it('answers { statusCode, error, code, message, details } with the library message', () => {
    const error = new ValidationError('Reading: limit must be 1 to 10,000. Fix: pass limit: 100', {
      entity: 'Reading',
    });
    expect(toHttpError(error)).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        error: 'Bad Request',
        code: 'VALIDATION',
        message: 'Reading: limit must be 1 to 10,000. Fix: pass limit: 100',
        details: { entity: 'Reading' },
      },
    });
  });

  it('makes details JSON-safe: bytes as text, bigint as a string, Dates as ISO text, no functions', () => {
    const at = new Date('2026-01-02T03:04:05.006Z');
    const error = new BigtableMapperError(ErrorCode.Validation, 'bad', {
      details: { key: { at, n: 2n ** 60n }, row: Buffer.from([0x61, 0x00]), fn: () => 1, list: [1n] },
    });
    const { body } = toHttpError(error);
    expect(body.details).toEqual({
      key: { at: '2026-01-02T03:04:05.006Z', n: '1152921504606846976' },
      row: 'a\\x00',
      list: ['1'],
    });
    const text = JSON.stringify(body);
    expect(text).not.toContain('Buffer');
    expect(text).not.toContain('stack');
  });

  it('a missing key object in EntityNotFoundError details survives JSON', () => {
    const at = new Date('2026-01-02T03:04:05.006Z');
    const { status, body } = toHttpError(new EntityNotFoundError('Visit', { userId: 'u1', at }, 'u1#8232676954993'));
    expect(status).toBe(404);
    expect(JSON.parse(JSON.stringify(body))).toMatchObject({
      error: 'Not Found',
      code: 'NOT_FOUND',
      details: { key: { userId: 'u1', at: '2026-01-02T03:04:05.006Z' }, rowKey: 'u1#8232676954993' },
    });
  });

  it('a partial write is a 500 with the per-entity report (no entities), capped at 100 failures', () => {
    const failures: WriteFailure[] = Array.from({ length: 150 }, (_, index) => ({
      index,
      entity: { secret: 'x' },
      rowKey: `k${index}`,
      grpcCode: 13,
      message: 'unknown family',
      cause: grpc(13),
    }));
    const { status, body } = toHttpError(new PartialWriteError('Reading', failures, 10));
    expect(status).toBe(500);
    expect(body.code).toBe('PARTIAL_WRITE');
    expect(body.details).toMatchObject({ entity: 'Reading', failed: 150, succeeded: 10, failuresOmitted: 50 });
    const listed = (body.details as { failures: unknown[] }).failures;
    expect(listed).toHaveLength(100);
    expect(listed[0]).toEqual({ index: 0, rowKey: 'k0', grpcCode: 13, message: 'unknown family' });
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('a partial write whose every failure is invalid input, with nothing stopping it, is a 400', () => {
    const invalid: WriteFailure = {
      index: 0,
      entity: {},
      rowKey: '',
      grpcCode: undefined,
      message: 'Reading.sensorId: "" must not be empty',
      cause: new KeyEncodingError('Reading', 'sensorId', '', 'must not be empty'),
    };
    expect(toHttpError(new PartialWriteError('Reading', [invalid], 3)).status).toBe(400);
    const stopped = new PartialWriteError('Reading', [invalid], 3, {
      cause: new DeadlineExceededError('bulk', 10),
      notAttempted: [4],
      unreadFrom: undefined,
    });
    expect(toHttpError(stopped).status).toBe(500);
  });

  it('keeps the table-missing message, which says to run mapper.sync()', () => {
    const { status, body } = toHttpError(new TableNotFoundError('mutateRow "readings"', 'readings', grpc(5)));
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 'TABLE_NOT_FOUND', details: { table: 'readings', grpcCode: 5 } });
    expect(body.message).toContain('run mapper.sync()');
  });
});

describe('bigtableMapperErrorHandler', () => {
  function response() {
    const res = {
      headersSent: false,
      statusCode: 0,
      body: undefined as unknown,
      status(code: number) {
        res.statusCode = code;
        return res;
      },
      json(body: unknown) {
        res.body = body;
        return res;
      },
    };
    return res;
  }

  it('is a four-argument (error) middleware that answers library errors', () => {
    const handler = bigtableMapperErrorHandler();
    expect(handler.length).toBe(4);
    const res = response();
    const next = vi.fn();
    handler(new EntityNotFoundError('Reading', { sensorId: 's1' }, 's1'), {}, res, next);
    expect(next).not.toHaveBeenCalled();
    expect(res.statusCode).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'NOT_FOUND' });
  });

  it('passes other errors, and errors after the headers were sent, to next()', () => {
    const handler = bigtableMapperErrorHandler();
    const next = vi.fn();
    const other = new Error('not ours');
    handler(other, {}, response(), next);
    expect(next).toHaveBeenCalledWith(other);
    const sent = Object.assign(response(), { headersSent: true });
    const ours = new ValidationError('bad');
    handler(ours, {}, sent, next);
    expect(next).toHaveBeenLastCalledWith(ours);
    expect(sent.statusCode).toBe(0);
  });

  it('reports server errors to onServerError, not client errors', () => {
    const onServerError = vi.fn();
    const handler = bigtableMapperErrorHandler({ onServerError });
    handler(new ValidationError('bad'), {}, response(), vi.fn());
    expect(onServerError).not.toHaveBeenCalled();
    const failure = new DriverError('readRows', grpc(13));
    handler(failure, {}, response(), vi.fn());
    expect(onServerError).toHaveBeenCalledWith(failure, 500);
  });
});
