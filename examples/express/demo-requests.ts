/**
 * Calls the running example over HTTP and prints what it answers: creates,
 * a read, a 404, a list followed page by page, and an NDJSON export.
 *
 * @example
 * ```ts
 * await runDemoRequests('http://127.0.0.1:3000');
 * ```
 */
export async function runDemoRequests(base: string): Promise<void> {
  const start = Date.UTC(2024, 4, 1, 12);
  const hrefs: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const body = { sensorId: 'greenhouse-1', ts: start + i * 60_000, temperature: 20 + i / 2, humidity: 60 - i };
    const res = await fetch(`${base}/readings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const created = (await res.json()) as { href: string };
    hrefs.push(created.href);
    console.log(`POST /readings -> ${res.status} ${created.href}`);
  }
  const one = await fetch(`${base}${hrefs[1]}`);
  console.log(`GET ${hrefs[1]} -> ${one.status}`, await one.json());
  const missing = await fetch(`${base}/readings/greenhouse-1/1`);
  console.log(`GET /readings/greenhouse-1/1 -> ${missing.status}`, await missing.json());
  const invalid = await fetch(`${base}/readings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"sensorId":"x"}',
  });
  console.log(`POST /readings (no temperature) -> ${invalid.status}`, await invalid.json());

  let cursor: string | null = null;
  let pageNumber = 0;
  do {
    const query: string = `?sensorId=greenhouse-1&limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page = (await (await fetch(`${base}/readings${query}`)).json()) as {
      items: { ts: string }[];
      cursor: string | null;
    };
    pageNumber += 1;
    console.log(`GET /readings page ${pageNumber}:`, page.items.map((r) => r.ts).join(', '));
    cursor = page.cursor;
  } while (cursor !== null);

  const exported = await fetch(`${base}/readings/export?sensorId=greenhouse-1`);
  const lines = (await exported.text()).trim().split('\n');
  console.log(
    `GET /readings/export -> ${exported.status} ${exported.headers.get('content-type')}, ${lines.length} lines; first: ${lines[0]}`,
  );
}
