import { Catch, Inject, Logger, Optional } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { toHttpError } from '../http/http-error.js';

/** The reply methods of an Express (`status().json()`) or Fastify (`code().send()`) response. */
interface PlatformResponse {
  status?: (code: number) => unknown;
  json?: (body: unknown) => unknown;
  code?: (code: number) => unknown;
  send?: (body: unknown) => unknown;
}

/**
 * A NestJS exception filter that answers this library's errors over HTTP
 * with the status and JSON body of `toHttpError`
 * (`{ statusCode, error, code, message, details? }`): validation and
 * key or value encoding errors 400, `EntityNotFoundError` 404,
 * `DeadlineExceededError` 504, `OperationAbortedError` and an unreachable or
 * unavailable Bigtable 503, a `PartialWriteError` 500 (400 when every failed
 * entity was invalid input) with the failed entities listed in `details`,
 * `TableNotFoundError` 500 with its message, anything else 500. Answers of
 * 500 or more are logged with the stack; the body never holds one. Replies
 * through the platform's `HttpAdapterHost` when Nest injects it (Express or
 * Fastify), else through an Express- or Fastify-style response. HTTP only.
 *
 * @example
 * ```ts
 * import { APP_FILTER } from '@nestjs/core';
 * import { BigtableMapperExceptionFilter } from 'bigtable-mapper/nest';
 *
 * @Module({ providers: [{ provide: APP_FILTER, useClass: BigtableMapperExceptionFilter }] })
 * class AppModule {}
 * // or: app.useGlobalFilters(new BigtableMapperExceptionFilter(app.get(HttpAdapterHost)));
 * // or: @UseFilters(BigtableMapperExceptionFilter) on a controller
 * ```
 */
@Catch(BigtableMapperError)
export class BigtableMapperExceptionFilter implements ExceptionFilter<BigtableMapperError> {
  readonly #adapterHost: HttpAdapterHost | undefined;
  readonly #logger = new Logger('BigtableMapperExceptionFilter');

  /** @param adapterHost - The application's HTTP adapter; Nest injects it when the filter is a provider. */
  constructor(@Optional() @Inject(HttpAdapterHost) adapterHost?: HttpAdapterHost) {
    this.#adapterHost = adapterHost;
  }

  /** Sends the error's HTTP answer (see the class). */
  catch(error: BigtableMapperError, host: ArgumentsHost): void {
    const { status, body } = toHttpError(error);
    if (status >= 500) this.#logger.error(error.message, error.stack);
    const response = host.switchToHttp().getResponse<PlatformResponse>();
    const adapter = this.#adapterHost?.httpAdapter;
    if (adapter !== undefined) {
      adapter.reply(response, body, status);
    } else if (typeof response.status === 'function' && typeof response.json === 'function') {
      response.status(status);
      response.json(body);
    } else if (typeof response.code === 'function' && typeof response.send === 'function') {
      response.code(status);
      response.send(body);
    } else {
      throw error;
    }
  }
}
