import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { toHttpError } from './http-error.js';

/**
 * What {@link bigtableMapperErrorHandler} needs of Express's response (a
 * structural type: the library does not depend on Express).
 *
 * @example
 * ```ts
 * const res: ErrorResponse = expressResponse;
 * ```
 */
export interface ErrorResponse {
  /** Whether the answer has started: the handler then leaves the error to `next`. */
  readonly headersSent?: boolean;
  /** Sets the status. */
  status(code: number): unknown;
  /** Sends the body as JSON. */
  json(body: unknown): unknown;
}

/**
 * Options of {@link bigtableMapperErrorHandler}.
 *
 * @example
 * ```ts
 * const options: ErrorHandlerOptions = { onServerError: (err, status) => logger.error({ err, status }) };
 * ```
 */
export interface ErrorHandlerOptions {
  /**
   * Called for every answer of status 500 or more, before it is sent (e.g. to log it). Default: one
   * `console.error` line with the status and the message, and the error (as the NestJS filter logs
   * through Nest's `Logger`); `false` logs nothing.
   */
  onServerError?: ((error: BigtableMapperError, status: number) => void) | false;
}

/**
 * An Express error-handling middleware that answers this library's errors
 * with the status and JSON body of {@link toHttpError}
 * (`{ statusCode, error, code, message, details? }`: invalid input 400, not
 * found 404, deadline 504, aborted or Bigtable unavailable 503, others 500).
 * Any other error, and any error after the headers were sent, goes to
 * `next(error)`. Register it after your routes. Express 5 passes rejected
 * promises of async routes to it; in Express 4 call `next(err)` yourself.
 *
 * @example
 * ```ts
 * import { bigtableMapperErrorHandler } from 'bigtable-mapper/express';
 *
 * app.post('/readings', async (req, res) => { await readings.save(parse(req.body)); res.status(201).end(); });
 * app.use(bigtableMapperErrorHandler({ onServerError: (err) => console.error(err) }));
 * ```
 */
export function bigtableMapperErrorHandler(
  options: ErrorHandlerOptions = {},
): (error: unknown, req: unknown, res: ErrorResponse, next: (error?: unknown) => void) => void {
  // Express tells error handlers apart by their four parameters.
  return (error, _req, res, next) => {
    if (!(error instanceof BigtableMapperError) || res.headersSent === true) {
      next(error);
      return;
    }
    const { status, body } = toHttpError(error);
    if (status >= 500 && options.onServerError !== false) (options.onServerError ?? logServerError)(error, status);
    res.status(status);
    res.json(body);
  };
}

function logServerError(error: BigtableMapperError, status: number): void {
  console.error(`bigtable-mapper: answered ${status}: ${error.message}`, error);
}
