import express from 'express';
import type { ErrorRequestHandler, Express, Request } from 'express';
import { bigtableMapperErrorHandler } from '../../src/express.js';
import type { Repository } from '../../src/index.js';
import { writeNdjson, type NdjsonSummary } from './ndjson.js';
import type { Reading } from './reading.entity.js';
import { BadRequest, parseReading, parseTimestamp, toReadingJson } from './reading-json.js';

const MAX_PAGE_SIZE = 100;

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
  /** The readiness check behind `GET /ready`, e.g. `(signal) => mapper.health({ signal, timeoutMs: 2_000 })`; without it the route is not served. */
  ready?: (signal: AbortSignal) => Promise<{ readonly healthy: boolean }>;
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

/** The app's own input errors; the library's errors go on to `bigtableMapperErrorHandler()`. */
const badRequestHandler: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (res.headersSent || !(error instanceof BadRequest)) return next(error);
  res.status(400).json({ statusCode: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: error.message });
};

/**
 * A small REST API over a readings repository:
 * `POST /readings`, `GET /readings?sensorId=&limit=&cursor=` (pages in key
 * order), `GET /readings/export?sensorId=` (NDJSON stream of the scan) and
 * `GET /readings/:sensorId/:ts` (404 when missing), and with `ready`,
 * `GET /ready` (200 when Bigtable answers for every table, 503 with the
 * report otherwise, for a load balancer or Kubernetes). The library's errors
 * answer through `bigtableMapperErrorHandler()`: invalid keys or values 400,
 * a missing row 404, a deadline 504, others 500, each with a JSON body.
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

  const ready = options.ready;
  if (ready !== undefined)
    app.get('/ready', async (req, res) => {
      // A probe that gives up (its connection closes) ends the check too.
      const gone = new AbortController();
      req.on('close', () => gone.abort());
      const report = await ready(gone.signal);
      res.status(report.healthy ? 200 : 503).json(report);
    });

  app.get('/readings/:sensorId/:ts', async (req, res) => {
    const reading = await readings.findOneOrFail({ sensorId: req.params.sensorId, ts: parseTimestamp(req.params.ts) });
    res.json(toReadingJson(reading));
  });

  app.use(badRequestHandler);
  app.use(bigtableMapperErrorHandler({ onServerError: (error, status) => console.error(status, error) }));
  return app;
}
