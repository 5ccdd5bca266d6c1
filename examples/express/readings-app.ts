import express from 'express';
import type { ErrorRequestHandler, Express, Request } from 'express';
import { BigtableMapperError, EntityNotFoundError, ErrorCode } from '../../src/index.js';
import type { Repository } from '../../src/index.js';
import { writeNdjson, type NdjsonSummary } from './ndjson.js';
import type { Reading } from './reading.entity.js';
import { BadRequest, parseReading, parseTimestamp, toReadingJson } from './reading-json.js';

const MAX_PAGE_SIZE = 100;
const BAD_REQUEST_CODES: readonly string[] = [ErrorCode.Validation, ErrorCode.KeyEncoding, ErrorCode.ValueEncoding];

/**
 * Options of {@link createReadingsApp}.
 *
 * @example
 * ```ts
 * const options: ReadingsAppOptions = { onExportEnd: (s) => console.log(`exported ${s.rows} rows`) };
 * ```
 */
export interface ReadingsAppOptions {
  /** Called when an NDJSON export ends, completed or cut short by the client. */
  onExportEnd?: (summary: NdjsonSummary) => void;
}

function sensorFilter(req: Request): { sensorId: string } | undefined {
  const { sensorId } = req.query;
  if (sensorId === undefined) return undefined;
  if (typeof sensorId !== 'string' || sensorId === '') throw new BadRequest('sensorId must be a non-empty string');
  return { sensorId };
}

function pageQuery(req: Request): { limit: number; cursor?: string } {
  const { limit, cursor } = req.query;
  const n = limit === undefined ? 20 : Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE)
    throw new BadRequest(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  if (cursor !== undefined && typeof cursor !== 'string') throw new BadRequest('cursor must be a string');
  return cursor === undefined || cursor === '' ? { limit: n } : { limit: n, cursor };
}

const errorHandler: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (res.headersSent) return next(error);
  const notFound = error instanceof EntityNotFoundError;
  const badRequest =
    error instanceof BadRequest || (error instanceof BigtableMapperError && BAD_REQUEST_CODES.includes(error.code));
  if (!notFound && !badRequest) return next(error);
  res.status(notFound ? 404 : 400).json({ error: (error as Error).message });
};

/**
 * A small REST API over a readings repository:
 * `POST /readings`, `GET /readings?sensorId=&limit=&cursor=` (pages in key
 * order), `GET /readings/export?sensorId=` (NDJSON stream of the scan) and
 * `GET /readings/:sensorId/:ts` (404 when missing).
 *
 * @example
 * ```ts
 * const app = createReadingsApp(mapper.getRepository(Reading));
 * app.listen(3000, '127.0.0.1');
 * ```
 */
export function createReadingsApp(readings: Repository<Reading>, options: ReadingsAppOptions = {}): Express {
  const app = express();
  app.use(express.json());

  app.post('/readings', async (req, res) => {
    const reading = readings.create(parseReading(req.body));
    await readings.save(reading);
    res.status(201).json(toReadingJson(reading));
  });

  app.get('/readings', async (req, res) => {
    const where = sensorFilter(req);
    const page = await readings.page({ ...pageQuery(req), ...(where === undefined ? {} : { where }) });
    res.json({ items: page.items.map(toReadingJson), cursor: page.cursor ?? null });
  });

  app.get('/readings/export', async (req, res) => {
    const where = sensorFilter(req);
    const summary = await writeNdjson(res, readings.iterate(where === undefined ? {} : { where }), toReadingJson);
    options.onExportEnd?.(summary);
  });

  app.get('/readings/:sensorId/:ts', async (req, res) => {
    const reading = await readings.findOneOrFail({ sensorId: req.params.sensorId, ts: parseTimestamp(req.params.ts) });
    res.json(toReadingJson(reading));
  });

  app.use(errorHandler);
  return app;
}
