/**
 * `bigtable-mapper/express`: HTTP answers for the library's errors. The
 * Express error handler, and the status and JSON body of any library error
 * (`toHttpError`), for Express or any other framework (the NestJS exception
 * filter in `bigtable-mapper/nest` uses the same mapping). It does not depend
 * on Express, and importing it loads neither `@google-cloud/bigtable` nor gRPC.
 *
 * @example
 * ```ts
 * import { bigtableMapperErrorHandler, toHttpError } from 'bigtable-mapper/express';
 * app.use(bigtableMapperErrorHandler());
 * ```
 *
 * @module bigtable-mapper/express
 */
export {
  bigtableMapperErrorHandler,
  type ErrorHandlerOptions,
  type ErrorResponse,
} from './http/express-error-handler.js';
export { toHttpError, httpStatusOf, type HttpError, type HttpErrorBody } from './http/http-error.js';
