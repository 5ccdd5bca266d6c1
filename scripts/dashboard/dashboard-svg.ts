/**
 * Draws the observability dashboard as one SVG document: latency percentiles per RPC method and per
 * entity operation, attempts against retries, connectivity errors, and RPC calls per second over the
 * run with its network resets marked. Pure: {@link DashboardData} in, SVG text out.
 */
import type { AttemptRow, DashboardData, ErrorRow, LatencyRow, RateSeries } from './dashboard-data.js';

const WIDTH = 1200;
const HEIGHT = 900;
const ROW1 = 250;
const ROW2 = 210;
/** Height of a two-line row: a bar, and the numbers under it. */
const ROW_HEIGHT = 44;
const MARGIN = 16;
const FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif';
const BACKGROUND = '#16181d';
const PANEL = '#1e2128';
const BORDER = '#2b2f38';
const TEXT = '#e6e6e6';
const DIM = '#9aa0a6';
const GRID = '#33373f';
const P50 = '#4e9af1';
const P99 = '#9cc6f7';
const RETRY = '#f5a623';
const ERROR = '#e5534b';
const SERIES = ['#4e9af1', '#f5a623', '#7ed321', '#d36ef0', '#50e3c2', '#e94e77', '#c9c26a', '#8d99ff'];
const LABEL_WIDTH = 190;
const HEADER = 84;

interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/**
 * A latency for people: `0.42 ms`, `3.4 ms`, `27 ms`, `1.2 s`; `n/a` for no value.
 *
 * @example
 * ```ts
 * formatMs(3.42); // '3.4 ms'
 * ```
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms >= 1000) return `${Number((ms / 1000).toPrecision(2))} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  if (ms >= 1) return `${Number(ms.toFixed(1))} ms`;
  return `${Number(ms.toPrecision(2))} ms`;
}

/**
 * A count with thousands separators: `12,345`.
 *
 * @example
 * ```ts
 * formatCount(12345); // '12,345'
 * ```
 */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function label(x: number, y: number, content: string, size: number, fill = TEXT, extra = ''): string {
  return `<text x="${fmt(x)}" y="${fmt(y)}" font-size="${size}" fill="${fill}"${extra}>${escapeXml(content)}</text>`;
}

function panel(box: Box, title: string, subtitle: string): string[] {
  return [
    `<rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="6" fill="${PANEL}" stroke="${BORDER}"/>`,
    label(box.x + 14, box.y + 24, title, 14, TEXT, ' font-weight="bold"'),
    label(box.x + 14, box.y + 41, subtitle, 10.5, DIM),
  ];
}

/** 1, 2 or 5 times a power of ten, the smallest step that splits `max` into at most `ticks` steps. */
function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power) || 1;
}

function latencyPanel(box: Box, title: string, rows: readonly LatencyRow[]): string[] {
  const parts = panel(box, title, 'p50 (dark) and p99 (light) of operation_latencies, from its buckets; log scale');
  const top = box.y + 56;
  const bottom = box.y + box.h - 30;
  const shown = rows.slice(0, Math.floor((bottom - top) / (ROW_HEIGHT - 4)));
  if (shown.length === 0) return [...parts, label(box.x + 14, box.y + 80, 'no calls in this run', 12, DIM)];
  const values = shown.flatMap((r) => [r.p50, r.p99]).filter((v) => Number.isFinite(v) && v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.max(0.01, Math.min(...values, 1))));
  const hi = Math.max(lo * 10, 10 ** Math.ceil(Math.log10(Math.max(...values, lo))));
  const left = box.x + 14 + LABEL_WIDTH;
  const right = box.x + box.w - 18;
  const x = (ms: number): number =>
    left + ((right - left) * (Math.log10(Math.min(hi, Math.max(lo, ms))) - Math.log10(lo))) / Math.log10(hi / lo);
  for (let tick = lo; tick <= hi * 1.0001; tick *= 10) {
    parts.push(
      `<line x1="${fmt(x(tick))}" y1="${top}" x2="${fmt(x(tick))}" y2="${bottom}" stroke="${GRID}" stroke-dasharray="3 3"/>`,
      label(x(tick), bottom + 16, formatMs(tick), 10, DIM, ' text-anchor="middle"'),
    );
  }
  const rowHeight = Math.min(ROW_HEIGHT, (bottom - top) / shown.length);
  for (const [i, row] of shown.entries()) {
    const y = top + i * rowHeight + 4;
    parts.push(
      label(box.x + 14, y + 11, row.label, 12),
      `<rect x="${left}" y="${fmt(y)}" width="${fmt(Math.max(2, x(row.p99) - left))}" height="13" fill="${P99}"/>`,
      `<rect x="${left}" y="${fmt(y)}" width="${fmt(Math.max(2, x(row.p50) - left))}" height="13" fill="${P50}"/>`,
      label(
        left,
        y + 28,
        `p50 ${formatMs(row.p50)} · p99 ${formatMs(row.p99)} · ${formatCount(row.calls)} calls`,
        10.5,
        DIM,
      ),
    );
  }
  return parts;
}

function attemptsPanel(box: Box, rows: readonly AttemptRow[]): string[] {
  const parts = panel(
    box,
    'Attempts and retries by method',
    'attempt_latencies count: first attempts (blue) and retries (orange, retry_count)',
  );
  const top = box.y + 56;
  const shown = rows.slice(0, Math.floor((box.y + box.h - 14 - top) / (ROW_HEIGHT - 4)));
  if (shown.length === 0) return [...parts, label(box.x + 14, box.y + 80, 'no calls in this run', 12, DIM)];
  const left = box.x + 14 + LABEL_WIDTH * 0.7;
  const right = box.x + box.w - 18;
  const most = Math.max(1, ...shown.map((r) => Math.max(r.attempts, r.calls + r.retries)));
  const rowHeight = Math.min(ROW_HEIGHT, (box.y + box.h - 14 - top) / shown.length);
  for (const [i, row] of shown.entries()) {
    const y = top + i * rowHeight + 4;
    const first = Math.max(0, row.attempts - row.retries);
    const firstWidth = ((right - left) * first) / most;
    const retryWidth = row.retries > 0 ? Math.max(2, ((right - left) * row.retries) / most) : 0;
    const share = row.calls > 0 ? ` (${((100 * row.retries) / row.calls).toFixed(2)} % of calls)` : '';
    parts.push(
      label(box.x + 14, y + 11, row.method, 12),
      `<rect x="${fmt(left)}" y="${fmt(y)}" width="${fmt(Math.max(1, firstWidth))}" height="13" fill="${P50}"/>`,
    );
    if (retryWidth > 0)
      parts.push(
        `<rect x="${fmt(left + firstWidth)}" y="${fmt(y)}" width="${fmt(retryWidth)}" height="13" fill="${RETRY}"/>`,
      );
    parts.push(
      label(
        left,
        y + 28,
        `${formatCount(row.calls)} calls · ${formatCount(row.attempts)} attempts · ${formatCount(row.retries)} retries${share}`,
        10.5,
        DIM,
      ),
    );
  }
  return parts;
}

function errorsPanel(box: Box, rows: readonly ErrorRow[]): string[] {
  const parts = panel(
    box,
    'Connectivity errors',
    'connectivity_error_count: attempts cut before any response (a reset or a timeout)',
  );
  if (rows.length === 0) return [...parts, label(box.x + 14, box.y + 80, 'none in this run', 12, DIM)];
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  parts.push(label(box.x + box.w - 18, box.y + 24, `${formatCount(total)} in all`, 12, ERROR, ' text-anchor="end"'));
  const left = box.x + 14 + LABEL_WIDTH;
  const right = box.x + box.w - 70;
  const top = box.y + 56;
  const most = Math.max(...rows.map((r) => r.count));
  const shown = rows.slice(0, Math.floor((box.y + box.h - 14 - top) / 26));
  const rowHeight = Math.min(30, (box.y + box.h - 14 - top) / shown.length);
  for (const [i, row] of shown.entries()) {
    const y = top + i * rowHeight + 4;
    const width = Math.max(2, ((right - left) * row.count) / most);
    parts.push(
      label(box.x + 14, y + 11, row.label, 12),
      `<rect x="${left}" y="${fmt(y)}" width="${fmt(width)}" height="13" fill="${ERROR}"/>`,
      label(left + width + 6, y + 11, formatCount(row.count), 11, TEXT),
    );
  }
  return parts;
}

function ratesPanel(box: Box, seconds: readonly number[], series: readonly RateSeries[], resets: readonly number[]) {
  const parts = panel(
    box,
    'RPC calls per second by entity operation',
    'operation_latencies count per export interval; dashed red lines: the network reset every open connection',
  );
  if (seconds.length === 0 || series.length === 0)
    return [...parts, label(box.x + 14, box.y + 80, 'no calls in this run', 12, DIM)];
  const left = box.x + 64;
  const right = box.x + box.w - 230;
  const top = box.y + 60;
  const bottom = box.y + box.h - 34;
  const last = Math.max(...seconds, ...resets, 1);
  const xStep = niceStep(last, 10);
  const end = Math.ceil(last / xStep) * xStep;
  const peak = Math.max(1, ...series.flatMap((s) => s.perSecond));
  const yStep = niceStep(peak, 5);
  const yMax = Math.ceil(peak / yStep) * yStep;
  const x = (s: number): number => left + ((right - left) * s) / end;
  const y = (v: number): number => bottom - ((bottom - top) * v) / yMax;
  for (let v = 0; v <= yMax + yStep / 2; v += yStep)
    parts.push(
      `<line x1="${left}" y1="${fmt(y(v))}" x2="${right}" y2="${fmt(y(v))}" stroke="${GRID}"/>`,
      label(left - 8, y(v) + 4, formatCount(v), 10, DIM, ' text-anchor="end"'),
    );
  for (let s = 0; s <= end + xStep / 2; s += xStep)
    parts.push(label(x(s), bottom + 16, `${fmt(s)} s`, 10, DIM, ' text-anchor="middle"'));
  for (const at of resets)
    parts.push(
      `<line class="reset" x1="${fmt(x(at))}" y1="${top}" x2="${fmt(x(at))}" y2="${bottom}" stroke="${ERROR}" stroke-dasharray="5 4"/>`,
      label(x(at) + 3, top + 10, 'reset', 10, ERROR),
    );
  for (const [i, s] of series.entries()) {
    const colour = SERIES[i % SERIES.length] as string;
    const points = s.perSecond.map((v, k) => `${fmt(x(seconds[k] ?? 0))},${fmt(y(v))}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points}"/>`);
    const mean = s.perSecond.reduce((a, b) => a + b, 0) / Math.max(1, s.perSecond.length);
    const ly = top + 4 + i * 22;
    parts.push(
      `<rect x="${right + 20}" y="${fmt(ly)}" width="14" height="4" fill="${colour}"/>`,
      label(right + 40, ly + 6, `${s.label}: ${formatCount(mean)}/s mean`, 11),
    );
  }
  return parts;
}

/**
 * The dashboard as a standalone SVG document, {@link WIDTH} × {@link HEIGHT}: a header with the title and
 * the caption lines, two latency panels, the attempts and connectivity-error panels, and the rates over
 * time. Each panel shows as many rows as fit, the busiest first.
 *
 * @example
 * ```ts
 * writeFileSync('dashboard.svg', renderDashboardSvg(dashboardData(snapshots, run)));
 * ```
 */
export function renderDashboardSvg(data: DashboardData): string {
  const half = (WIDTH - 3 * MARGIN) / 2;
  const row1: Box = { x: MARGIN, y: HEADER, w: half, h: ROW1 };
  const row2 = HEADER + ROW1 + MARGIN;
  const row3 = row2 + ROW2 + MARGIN;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="${FONT}">`,
    `<title>${escapeXml(data.title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${BACKGROUND}"/>`,
    label(MARGIN, 28, data.title, 19, TEXT, ' font-weight="bold"'),
    ...data.caption.map((line, i) => label(MARGIN, 50 + i * 15, line, 11.5, DIM)),
    ...latencyPanel(row1, 'RPC latency by method', data.byMethod),
    ...latencyPanel({ ...row1, x: 2 * MARGIN + half }, 'RPC latency by entity operation', data.byOperation),
    ...attemptsPanel({ x: MARGIN, y: row2, w: half, h: ROW2 }, data.attempts),
    ...errorsPanel({ x: 2 * MARGIN + half, y: row2, w: half, h: ROW2 }, data.connectivityErrors),
    ...ratesPanel(
      { x: MARGIN, y: row3, w: WIDTH - 2 * MARGIN, h: HEIGHT - row3 - MARGIN },
      data.seconds,
      data.rates,
      data.resets,
    ),
    '</svg>',
  ];
  return parts.join('\n');
}
