/**
 * Calls the running example over HTTP and prints what it answers: a few
 * creates, an invalid body (400 with its issues), a read, a 404, a list
 * followed page by page with the cursor, a customer aggregate written row by
 * row and read back in one scan, and the OpenAPI document.
 *
 * @example
 * ```ts
 * await runDemoRequests('http://127.0.0.1:3000');
 * ```
 */
export async function runDemoRequests(base: string): Promise<void> {
  const post = (body: object) =>
    fetch(`${base}/page-views`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const start = Date.UTC(2024, 4, 1, 12);
  const hrefs: string[] = [];
  for (const [i, path] of ['/', '/pricing', '/docs', '/docs/install', '/blog'].entries()) {
    const res = await post({
      userId: 'u1',
      site: 'example.com',
      at: new Date(start + i * 1_000).toISOString(),
      path,
      durationMs: 1_000 + i * 250,
    });
    const view = (await res.json()) as { href: string };
    hrefs.push(view.href);
    console.log(`POST /page-views ${path} -> ${res.status} ${view.href}`);
  }
  await post({ userId: 'u1', site: 'other.org', at: new Date(start).toISOString(), path: '/' });
  await post({ userId: 'u2', site: 'example.com', at: new Date(start).toISOString(), path: '/' });
  const invalid = await post({ userId: 'u1', site: 'example.com', path: 'pricing', durationMs: -1 });
  console.log(`POST /page-views (invalid) -> ${invalid.status}`, await invalid.json());

  const one = await fetch(`${base}${hrefs[2]}`);
  console.log(`GET ${hrefs[2]} -> ${one.status}`, await one.json());
  const missing = await fetch(`${base}/page-views/u1/example.com/1`);
  console.log(`GET /page-views/u1/example.com/1 -> ${missing.status}`, await missing.json());

  let cursor: string | null = null;
  let pageNumber = 0;
  do {
    const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
    const page = (await (await fetch(`${base}/page-views/u1/example.com${query}`)).json()) as {
      items: { path: string }[];
      cursor: string | null;
    };
    pageNumber += 1;
    console.log(`GET /page-views/u1/example.com page ${pageNumber}:`, page.items.map((v) => v.path).join(', '));
    cursor = page.cursor;
  } while (cursor !== null);

  const send = (path: string, body: object) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await send('/customers', { customerId: 'c1', name: 'Ada', email: 'ada@example.com' });
  await send('/customers/c1/orders', { orderId: 1, total: 9.5, status: 'open' });
  await send('/customers/c1/orders', { orderId: 2, total: 30, status: 'paid' });
  await send('/customers/c1/addresses', { label: 'home', city: 'Lyon' });
  const badOrder = await send('/customers/c1/orders', { orderId: 3, total: -1, status: 'lost' });
  console.log(`POST /customers/c1/orders (invalid) -> ${badOrder.status}`, await badOrder.json());
  console.log('GET /customers/c1 (one scan) ->', JSON.stringify(await (await fetch(`${base}/customers/c1`)).json()));
  const ready = await fetch(`${base}/health/ready`);
  console.log(`GET /health/ready -> ${ready.status}`, JSON.stringify(await ready.json()));
  const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as { components: { schemas: object } };
  console.log('GET /openapi.json -> schemas', Object.keys(openapi.components.schemas).join(', '));
}
