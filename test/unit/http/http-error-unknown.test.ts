import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError, DeadlineExceededError } from '../../../src/errors/index.js';
import { toHttpError } from '../../../src/http/http-error.js';
import { bigtableMapperErrorHandler } from '../../../src/http/express-error-handler.js';

const response = () => {
  const sent: { status?: number; body?: unknown } = {};
  return {
    sent,
    res: {
      headersSent: false,
      status(code: number) {
        sent.status = code;
        return this;
      },
      json(body: unknown) {
        sent.body = body;
        return this;
      },
    },
  };
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('toHttpError takes what a catch clause gives (unknown)', () => {
  it('answers any other error with a plain 500 that does not leak its message', () => {
    const caught: unknown = new TypeError('secret internals at /srv/app.js:12');
    const { status, body } = toHttpError(caught);
    expect(status).toBe(500);
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL',
      message: 'Internal Server Error',
    });
    expect(toHttpError('a string').status).toBe(500);
    expect(toHttpError(null).status).toBe(500);
  });

  it('still maps the library errors', () => {
    const caught: unknown = new ValidationError('Message.id: bad', {});
    expect(toHttpError(caught).status).toBe(400);
  });
});

describe('the Express error handler logs 5xx answers by default, as the Nest filter does', () => {
  it('logs a server error with console.error unless told otherwise', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { res, sent } = response();
    const error = new DeadlineExceededError('Message.scan', 1000);
    bigtableMapperErrorHandler()(error, {}, res, () => undefined);
    expect(sent.status).toBe(504);
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0]?.[0])).toMatch(/504.*Message\.scan ran past its deadline/);
  });

  it('does not log a client error, and onServerError: false silences it', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    bigtableMapperErrorHandler()(new ValidationError('x', {}), {}, response().res, () => undefined);
    bigtableMapperErrorHandler({ onServerError: false })(
      new DeadlineExceededError('Message.scan', 1000),
      {},
      response().res,
      () => undefined,
    );
    expect(log).not.toHaveBeenCalled();
  });
});
