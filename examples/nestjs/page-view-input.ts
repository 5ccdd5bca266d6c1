import { BadRequestException } from '@nestjs/common';
import type { EntityData } from '../../src/index.js';
import type { PageView } from './page-view.entity.js';

/**
 * A page view as the API returns it, with `href`, the path of `GET /page-views/:userId/:site/:at`.
 *
 * @example
 * ```ts
 * const json: PageViewJson = { userId: 'u1', site: 'example.com', at: '2024-05-01T12:00:00.000Z', path: '/', href: '/page-views/u1/example.com/1714564800000' };
 * ```
 */
export interface PageViewJson {
  userId: string;
  site: string;
  at: string;
  path: string;
  durationMs?: number;
  href: string;
}

function text(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw new BadRequestException(`${field} must be a non-empty string`);
  return value;
}

/**
 * A timestamp from JSON or a URL: epoch milliseconds (number or digits) or ISO text.
 *
 * @example
 * ```ts
 * parseAt('1714564800000').toISOString(); // '2024-05-01T12:00:00.000Z'
 * ```
 */
export function parseAt(value: unknown): Date {
  const at =
    typeof value === 'string' && /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value as string | number);
  if ((typeof value !== 'string' && typeof value !== 'number') || Number.isNaN(at.getTime())) {
    throw new BadRequestException('at must be an ISO date or epoch milliseconds');
  }
  return at;
}

/**
 * Reads a `POST /page-views` body: `path` string, optional `durationMs`
 * integer and `at` (ISO text or epoch ms; default now). The key parts
 * `userId` and `site` are taken as given: the library rejects a missing or
 * invalid one with a `KeyEncodingError` naming `PageView.userId`, which the
 * exception filter answers with 400.
 * `repo.create()` turns the result into a `PageView`.
 *
 * @example
 * ```ts
 * const view = views.create(parsePageView({ userId: 'u1', site: 'example.com', path: '/' }));
 * ```
 */
export function parsePageView(body: unknown): EntityData<PageView> {
  if (body === null || typeof body !== 'object') throw new BadRequestException('expected a JSON object');
  const input = body as Record<string, unknown>;
  const at = input['at'] === undefined ? new Date() : parseAt(input['at']);
  const durationMs = input['durationMs'];
  if (durationMs !== undefined && !Number.isSafeInteger(durationMs))
    throw new BadRequestException('durationMs must be an integer');
  const view: EntityData<PageView> = {
    userId: input['userId'] as string,
    site: input['site'] as string,
    at,
    path: text(input, 'path'),
  };
  if (durationMs !== undefined) view.durationMs = durationMs as number;
  return view;
}

/**
 * The JSON form of a page view.
 *
 * @example
 * ```ts
 * toPageViewJson(view).href; // '/page-views/u1/example.com/1714564800000'
 * ```
 */
export function toPageViewJson(view: PageView): PageViewJson {
  const href = `/page-views/${[view.userId, view.site, String(view.at.getTime())].map(encodeURIComponent).join('/')}`;
  const json: PageViewJson = { userId: view.userId, site: view.site, at: view.at.toISOString(), path: view.path, href };
  if (view.durationMs !== undefined) json.durationMs = view.durationMs;
  return json;
}
