import { Catch, HttpStatus, Logger } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { BigtableMapperError, EntityNotFoundError, ErrorCode } from '../../src/index.js';

const BAD_REQUEST_CODES: readonly string[] = [ErrorCode.Validation, ErrorCode.KeyEncoding, ErrorCode.ValueEncoding];

/**
 * Maps mapper errors to HTTP: `EntityNotFoundError` → 404; invalid keys,
 * values, cursors or queries → 400; anything else → 500.
 *
 * @example
 * ```ts
 * @UseFilters(MapperErrorsFilter)
 * class PageViewsController {}
 * ```
 */
@Catch(BigtableMapperError)
export class MapperErrorsFilter implements ExceptionFilter {
  catch(error: BigtableMapperError, host: ArgumentsHost): void {
    const status =
      error instanceof EntityNotFoundError
        ? HttpStatus.NOT_FOUND
        : BAD_REQUEST_CODES.includes(error.code)
          ? HttpStatus.BAD_REQUEST
          : HttpStatus.INTERNAL_SERVER_ERROR;
    if (status === HttpStatus.INTERNAL_SERVER_ERROR)
      new Logger(MapperErrorsFilter.name).error(error.message, error.stack);
    const message = status === HttpStatus.INTERNAL_SERVER_ERROR ? 'internal error' : error.message;
    host.switchToHttp().getResponse<Response>().status(status).json({ statusCode: status, code: error.code, message });
  }
}
