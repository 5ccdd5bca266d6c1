import { BadRequestException, Body, Controller, Get, Inject, Param, Post, Query } from '@nestjs/common';
import { toJsonSchema, type JsonSchema } from '../../src/json.js';
import { PageView } from './page-view.entity.js';
import { parseAt, readPageView, toPageViewJson, type PageViewJson } from './page-view-input.js';
import { PageViewsService } from './page-views.service.js';

const MAX_PAGE_SIZE = 100;

function pageSize(limit: string | undefined): number {
  const n = limit === undefined ? 20 : Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE)
    throw new BadRequestException(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  return n;
}

/**
 * `POST /page-views` (the body is the entity's JSON form, read by
 * `fromJson`), `GET /page-views/schema` (that body's JSON Schema),
 * `GET /page-views/:userId/:site?limit=&cursor=` (pages, oldest first) and
 * `GET /page-views/:userId/:site/:at` (404 when missing). The library's
 * errors become HTTP answers through `BigtableMapperExceptionFilter`
 * (registered in `AppModule`): an invalid body or key 400 with every issue
 * listed, a missing row 404.
 *
 * @example
 * ```ts
 * await fetch(`${base}/page-views`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId: 'u1', site: 'example.com', path: '/' }) });
 * ```
 */
@Controller('page-views')
export class PageViewsController {
  readonly #service: PageViewsService;

  constructor(@Inject(PageViewsService) service: PageViewsService) {
    this.#service = service;
  }

  /** Records a view; 201 with the view and its `href`. @example `POST /page-views {"userId":"u1","site":"example.com","path":"/"}` */
  @Post()
  async create(@Body() body: unknown): Promise<PageViewJson> {
    return toPageViewJson(await this.#service.record(readPageView(body)));
  }

  /** The JSON Schema (2020-12) of a `POST /page-views` body, for clients and gateways. @example `GET /page-views/schema` */
  @Get('schema')
  schema(): JsonSchema {
    return toJsonSchema(PageView, { for: 'create' });
  }

  /** One page of a user's views of a site. @example `GET /page-views/u1/example.com?limit=2&cursor=...` */
  @Get(':userId/:site')
  async list(
    @Param('userId') userId: string,
    @Param('site') site: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<{ items: PageViewJson[]; cursor: string | null }> {
    const page = await this.#service.list(userId, site, pageSize(limit), cursor === '' ? undefined : cursor);
    return { items: page.items.map(toPageViewJson), cursor: page.cursor ?? null };
  }

  /** One view by its key. @example `GET /page-views/u1/example.com/1714564800000` */
  @Get(':userId/:site/:at')
  async get(
    @Param('userId') userId: string,
    @Param('site') site: string,
    @Param('at') at: string,
  ): Promise<PageViewJson> {
    return toPageViewJson(await this.#service.get(userId, site, parseAt(at)));
  }
}
