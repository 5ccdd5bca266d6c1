import { BadRequestException, Controller, Get, Inject, NotFoundException, Param, Post, Req } from '@nestjs/common';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { IngestService, type IngestReport } from './ingest.service.js';

/** The content type of `POST /page-views/ingest`: one JSON value per line. */
const NDJSON = 'application/x-ndjson';

/**
 * `POST /page-views/ingest` takes a stream of page views as NDJSON (one
 * `POST /page-views` body per line, `content-type: application/x-ndjson`;
 * Nest's JSON body parser leaves such a body unread, so it is read here line
 * by line as it arrives) and answers the {@link IngestReport};
 * `GET /traffic/:site/:day` answers the site's counted views and their total
 * duration that day (404 when none was counted).
 *
 * @example
 * ```ts
 * await fetch(`${base}/page-views/ingest`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: lines.join('\n') });
 * ```
 */
@Controller()
export class IngestController {
  readonly #ingest: IngestService;

  constructor(@Inject(IngestService) ingest: IngestService) {
    this.#ingest = ingest;
  }

  /** Ingests the request's NDJSON body. @example `POST /page-views/ingest` */
  @Post('page-views/ingest')
  ingestViews(
    @Req() request: Readable & { headers: Record<string, string | string[] | undefined> },
  ): Promise<IngestReport> {
    const type = String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim();
    if (type !== NDJSON) throw new BadRequestException(`send the page views as ${NDJSON}, one per line`);
    return this.#ingest.ingest(createInterface({ input: request, crlfDelay: Infinity }));
  }

  /** A site's traffic on a UTC day. @example `GET /traffic/example.com/2024-05-01` */
  @Get('traffic/:site/:day')
  async traffic(
    @Param('site') site: string,
    @Param('day') day: string,
  ): Promise<{ site: string; day: string; views: string; durationMs: string }> {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new BadRequestException('day must be YYYY-MM-DD');
    const found = await this.#ingest.traffic(site, day);
    if (found === undefined) throw new NotFoundException(`no traffic counted for ${site} on ${day}`);
    // Counters may pass 2^53: sent as decimal text, as JSON numbers cannot hold every int64.
    return { site, day, views: String(found.views ?? 0), durationMs: String(found.durationMs ?? 0) };
  }
}
