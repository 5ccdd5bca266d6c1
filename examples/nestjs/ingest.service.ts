import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectBulkWriter, InjectRepository } from '../../src/nest/index.js';
import { type BulkWriter, WriteOutcomeUnknownError, type Repository, type WriteOutcome } from '../../src/index.js';
import { PageView } from './page-view.entity.js';
import { readPageView } from './page-view-input.js';
import { SiteTraffic } from './site-traffic.entity.js';

/** Most rejected lines an ingest report lists (the count is always exact). */
const MAX_LISTED_REJECTIONS = 100;
/** Most site-and-day counters held before they are added to Bigtable mid-stream. */
const MAX_PENDING_COUNTERS = 1_000;
/** `add()` calls in flight while counters are added. */
const COUNTER_CONCURRENCY = 8;
/** The longest NDJSON line taken, in characters. */
const MAX_LINE_CHARS = 64 * 1024;

/**
 * What one ingest did: lines read, page views accepted by the writer and how
 * each ended, the lines refused (line number and message), and the counters
 * added (a counter whose `add()` was cut in flight is `unknown`: it may or
 * may not have been counted, and is never sent again).
 *
 * @example
 * ```ts
 * const report: IngestReport = { lines: 3, persisted: 2, failed: 0, unknown: 0, rejected: [{ line: 2, message: '…' }], rejectedCount: 1, counters: { added: 1, unknown: 0 } };
 * ```
 */
export interface IngestReport {
  lines: number;
  persisted: number;
  failed: number;
  unknown: number;
  rejected: { line: number; message: string }[];
  rejectedCount: number;
  counters: { added: number; unknown: number };
}

/** A site-and-day counter waiting to be added. */
interface PendingCounter {
  site: string;
  day: string;
  views: number;
  durationMs: number;
}

/**
 * Ingests a stream of page views (NDJSON, one JSON page view per line):
 * each valid line goes to the page views' long-lived `BulkWriter` (provided
 * by `BigtableModule.forFeature([PageView], { bulkWriters })`, flushed and
 * closed when the application shuts down), whose `add()` waits while its
 * outstanding caps are full: the stream is read only as fast as Bigtable
 * takes the rows. Every view the writer persisted is counted into its site's
 * and day's `Sum` counters (`SiteTraffic`), summed in memory first and added
 * with one `AddToCell` row write per site and day. A line that is not a
 * valid page view is refused alone, with its line number.
 *
 * @example
 * ```ts
 * const report = await ingest.ingest(readLines(request)); // { persisted: 998, rejected: [{ line: 17, ... }], ... }
 * ```
 */
@Injectable()
export class IngestService {
  readonly #writer: BulkWriter<PageView>;
  readonly #views: Repository<PageView>;
  readonly #traffic: Repository<SiteTraffic>;

  constructor(
    @InjectBulkWriter(PageView) writer: BulkWriter<PageView>,
    @InjectRepository(PageView) views: Repository<PageView>,
    @InjectRepository(SiteTraffic) traffic: Repository<SiteTraffic>,
  ) {
    this.#writer = writer;
    this.#views = views;
    this.#traffic = traffic;
  }

  /** Ingests `lines` (one page view's JSON form per line; blank lines are skipped) and reports what happened. */
  async ingest(lines: AsyncIterable<string>): Promise<IngestReport> {
    const report: IngestReport = {
      lines: 0,
      persisted: 0,
      failed: 0,
      unknown: 0,
      rejected: [],
      rejectedCount: 0,
      counters: { added: 0, unknown: 0 },
    };
    const counters = new Map<string, PendingCounter>();
    // Bounded by the writer's outstanding cap: an outcome is pending only while its row is outstanding.
    const settling = new Set<Promise<void>>();
    const count = (outcome: WriteOutcome<PageView>, view: PageView): void => {
      report[outcome.status] += 1;
      if (outcome.status !== 'persisted') return;
      const day = view.at.toISOString().slice(0, 10);
      const key = `${view.site}\n${day}`;
      const counter = counters.get(key) ?? { site: view.site, day, views: 0, durationMs: 0 };
      counter.views += 1;
      counter.durationMs += view.durationMs ?? 0;
      counters.set(key, counter);
    };
    const reject = (line: number, error: unknown): void => {
      report.rejectedCount += 1;
      if (report.rejected.length < MAX_LISTED_REJECTIONS)
        report.rejected.push({ line, message: error instanceof Error ? error.message : String(error) });
    };
    for await (const text of lines) {
      report.lines += 1;
      if (text.trim() === '') continue;
      let view: PageView;
      try {
        if (text.length > MAX_LINE_CHARS)
          throw new BadRequestException(`a line is at most ${MAX_LINE_CHARS} characters`);
        view = this.#views.create(readPageView(JSON.parse(text) as unknown));
        const accepted = await this.#writer.add(view);
        const counted = accepted.outcome.then((outcome) => count(outcome, view));
        settling.add(counted);
        void counted.finally(() => settling.delete(counted));
      } catch (error) {
        reject(report.lines, error);
        continue;
      }
      if (counters.size >= MAX_PENDING_COUNTERS) await this.#addCounters(counters, report);
    }
    await this.#writer.flush();
    await Promise.all(settling);
    await this.#addCounters(counters, report);
    return report;
  }

  /** A site's traffic on a day, or `undefined` when nothing was counted. @example `await ingest.traffic('example.com', '2024-05-01');` */
  traffic(site: string, day: string): Promise<SiteTraffic | undefined> {
    return this.#traffic.findOne({ site, day });
  }

  /** Adds the pending counters, `COUNTER_CONCURRENCY` row writes at a time, and forgets them. */
  async #addCounters(counters: Map<string, PendingCounter>, report: IngestReport): Promise<void> {
    const pending = [...counters.values()];
    counters.clear();
    for (let i = 0; i < pending.length; i += COUNTER_CONCURRENCY) {
      await Promise.all(
        pending.slice(i, i + COUNTER_CONCURRENCY).map(async ({ site, day, views, durationMs }) => {
          try {
            await this.#traffic.add({ site, day }, { views, durationMs });
            report.counters.added += 1;
          } catch (error) {
            // Cut in flight: the server may or may not have added it, so it is not sent again.
            if (!(error instanceof WriteOutcomeUnknownError)) throw error;
            report.counters.unknown += 1;
          }
        }),
      );
    }
  }
}
