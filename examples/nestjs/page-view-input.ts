import { BadRequestException } from '@nestjs/common';
import type { EntityData } from '../../src/index.js';
import { fromJson, toJson } from '../../src/json.js';
import { PageView } from './page-view.entity.js';

/**
 * A page view as the API returns it: the entity's JSON form (`toJson`: `at`
 * as ISO 8601 text), with `href`, the path of `GET /page-views/:userId/:site/:at`.
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

/**
 * A timestamp from a URL: epoch milliseconds (digits) or ISO text.
 *
 * @example
 * ```ts
 * parseAt('1714564800000').toISOString(); // '2024-05-01T12:00:00.000Z'
 * ```
 */
export function parseAt(value: string): Date {
  const at = /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value);
  if (Number.isNaN(at.getTime())) throw new BadRequestException('at must be an ISO date or epoch milliseconds');
  return at;
}

/**
 * Reads a `POST /page-views` body, the JSON form of a `PageView` (its
 * schema is `toJsonSchema(PageView, { for: 'create' })`, served at
 * `GET /page-views/schema`), with `at` defaulting to now. `fromJson`
 * refuses what is not in that form (an unknown property, `at` that is no
 * RFC 3339 date-time, ...), and `repo.create()` and `save()` what the entity
 * refuses (a missing or too long key part, a `path` its validator refuses):
 * one `ValidationError` each, listing every issue, which the exception
 * filter answers with 400.
 *
 * @example
 * ```ts
 * const view = views.create(readPageView({ userId: 'u1', site: 'example.com', path: '/' }));
 * ```
 */
export function readPageView(body: unknown): EntityData<PageView> {
  const withAt =
    body !== null && typeof body === 'object' && !Array.isArray(body) && !Object.hasOwn(body, 'at')
      ? { ...body, at: new Date().toISOString() }
      : body;
  return fromJson(PageView, withAt, { for: 'create' });
}

/**
 * The JSON form of a page view, with its `href`.
 *
 * @example
 * ```ts
 * toPageViewJson(view).href; // '/page-views/u1/example.com/1714564800000'
 * ```
 */
export function toPageViewJson(view: PageView): PageViewJson {
  const href = `/page-views/${[view.userId, view.site, String(view.at.getTime())].map(encodeURIComponent).join('/')}`;
  return { ...(toJson(PageView, view) as Omit<PageViewJson, 'href'>), href };
}
