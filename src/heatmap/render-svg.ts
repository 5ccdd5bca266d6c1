import { colorOf, fractionOf, LEVELS, levelOf } from './color-scale.js';
import type { HeatmapData } from './heatmap-data.js';

/** Resolved drawing options. @internal */
export interface SvgOptions {
  readonly title: string;
  readonly subtitle: string | undefined;
  readonly width: number;
  readonly height: number;
  readonly scale: 'log' | 'linear';
  /** Top of the colour scale; default: the largest count. Equal values across heatmaps make them comparable. */
  readonly max: number | undefined;
}

const FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif';
const TEXT = '#e6e6e6';
const DIM = '#9aa0a6';
const TOP = 52;
const BOTTOM = 46;
const RIGHT = 96;
const STRIP = 34;

/**
 * The heatmap as a standalone SVG document: time left to right, the key space
 * top to bottom in key order, one colour per cell on a dark-to-bright scale,
 * salt buckets as a banded strip beside the key labels, and a legend. One
 * column (a census: one moment, no time axis) is drawn as a bar per key
 * range, as long as its count on the scale and coloured by it, over an axis
 * of counts.
 * @internal
 */
export function renderSvg(data: HeatmapData, options: SvgOptions): string {
  const { width, height } = options;
  const cols = data.timeLabels.length;
  const rows = data.keyRanges.length;
  const salted = data.keyRanges.some((r) => r.bucket !== undefined);
  // Room for the longest key label (about 6 px a character at 10 px) after the axis title, within bounds.
  const longest = data.keyRanges.reduce((n, r) => Math.max(n, r.label.length), 0);
  const labels = Math.min(320, Math.max(60, 30 + longest * 6));
  const left = labels + (salted ? STRIP + 6 : 0);
  const plotWidth = Math.max(20, width - left - RIGHT);
  const plotHeight = Math.max(20, height - TOP - BOTTOM);
  const cellWidth = plotWidth / cols;
  const rowHeight = plotHeight / rows;
  let max = options.max ?? 0;
  if (options.max === undefined) for (const column of data.counts) for (const v of column) if (v > max) max = v;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#16181d"/>`,
    `<text x="${left}" y="22" font-size="16" font-weight="bold" fill="${TEXT}">${escapeXml(options.title)}</text>`,
  ];
  if (options.subtitle !== undefined)
    parts.push(`<text x="${left}" y="40" font-size="11" fill="${DIM}">${escapeXml(options.subtitle)}</text>`);
  parts.push(`<rect x="${left}" y="${TOP}" width="${fmt(plotWidth)}" height="${fmt(plotHeight)}" fill="#000"/>`);
  parts.push(`<g shape-rendering="crispEdges">`);
  if (cols === 1) parts.push(...bars(data, left, plotWidth, rowHeight, max, options.scale));
  for (let r = 0; cols > 1 && r < rows; r++) {
    const y = TOP + r * rowHeight;
    let c = 0;
    while (c < cols) {
      const level = levelOf(data.counts[c]?.[r] ?? 0, max, options.scale);
      let end = c + 1;
      while (end < cols && levelOf(data.counts[end]?.[r] ?? 0, max, options.scale) === level) end++;
      if (level > 0) {
        parts.push(
          `<rect x="${fmt(left + c * cellWidth)}" y="${fmt(y)}" width="${fmt((end - c) * cellWidth)}" height="${fmt(rowHeight)}" fill="${colorOf(level)}"/>`,
        );
      }
      c = end;
    }
  }
  parts.push('</g>');
  if (salted) parts.push(...bucketStrip(data, left - STRIP - 4, rowHeight));
  parts.push(...keyLabels(data, left - (salted ? STRIP + 10 : 6), rowHeight, plotHeight));
  parts.push(
    ...(cols === 1
      ? countAxis(data, left, plotWidth, plotHeight, max, options.scale)
      : timeLabels(data, left, cellWidth, plotWidth, plotHeight)),
  );
  parts.push(...legend(width - RIGHT + 22, plotHeight, max, options.scale, data.unit ?? 'operations'));
  parts.push(
    `<text transform="translate(14 ${fmt(TOP + plotHeight / 2)}) rotate(-90)" text-anchor="middle" font-size="11" fill="${DIM}">key space (row key order)</text>`,
    '</svg>',
  );
  return parts.join('\n');
}

/** Bands of alternating shade, one per run of rows in the same salt bucket, numbered where there is room. */
function bucketStrip(data: HeatmapData, x: number, rowHeight: number): string[] {
  const out = [
    `<text x="${x + STRIP / 2}" y="${TOP - 4}" text-anchor="middle" font-size="9" fill="${DIM}">salt</text>`,
  ];
  let start = 0;
  let band = 0;
  for (let r = 1; r <= data.keyRanges.length; r++) {
    const bucket = data.keyRanges[start]?.bucket;
    if (r < data.keyRanges.length && data.keyRanges[r]?.bucket === bucket) continue;
    const y = TOP + start * rowHeight;
    const h = (r - start) * rowHeight;
    out.push(
      `<rect x="${x}" y="${fmt(y)}" width="${STRIP}" height="${fmt(h)}" fill="${band % 2 === 0 ? '#3a3f4b' : '#2a2e37'}"/>`,
    );
    if (bucket !== undefined && h >= 9) {
      out.push(
        `<text x="${x + STRIP / 2}" y="${fmt(y + h / 2 + 3)}" text-anchor="middle" font-size="${Math.min(10, h - 1).toFixed(0)}" fill="${TEXT}">${bucket}</text>`,
      );
    }
    band++;
    start = r;
  }
  return out;
}

/** Key prefixes at evenly spaced rows, as many as fit at 12 px apart. */
function keyLabels(data: HeatmapData, x: number, rowHeight: number, plotHeight: number): string[] {
  const rows = data.keyRanges.length;
  const every = Math.max(1, Math.ceil(rows / Math.max(1, Math.floor(plotHeight / 12))));
  const size = Math.min(10, Math.max(7, rowHeight * every - 2)).toFixed(0);
  const out: string[] = [];
  for (let r = 0; r < rows; r += every) {
    const y = TOP + (r + 0.5) * rowHeight + 3;
    out.push(
      `<text x="${x}" y="${fmt(y)}" text-anchor="end" font-size="${size}" fill="${TEXT}">${escapeXml(data.keyRanges[r]?.label ?? '')}</text>`,
    );
  }
  return out;
}

/**
 * The one column as bars from the key axis, as long as their counts on the scale (at least 1 px when not
 * 0), outlined so that the dark colours of small counts still show on the black plot.
 */
function bars(
  data: HeatmapData,
  left: number,
  plotWidth: number,
  rowHeight: number,
  max: number,
  scale: 'log' | 'linear',
): string[] {
  const out: string[] = [];
  data.keyRanges.forEach((_, r) => {
    const value = data.counts[0]?.[r] ?? 0;
    const level = levelOf(value, max, scale);
    if (level === 0) return;
    const length = Math.max(1, plotWidth * fractionOf(value, max, scale));
    out.push(
      `<rect x="${fmt(left)}" y="${fmt(TOP + r * rowHeight)}" width="${fmt(length)}" height="${fmt(rowHeight)}" fill="${colorOf(level)}" stroke="${DIM}" stroke-width="0.5"/>`,
    );
  });
  return out;
}

/** Under one column's bars: counts at 0, the middle and the top of the scale, and what they count. */
function countAxis(
  data: HeatmapData,
  left: number,
  plotWidth: number,
  plotHeight: number,
  max: number,
  scale: 'log' | 'linear',
): string[] {
  const y = TOP + plotHeight;
  const mid = scale === 'log' ? Math.expm1(Math.log1p(max) / 2) : max / 2;
  const out: string[] = [];
  for (const [value, fraction] of [
    [0, 0],
    [mid, 0.5],
    [max, 1],
  ] as const) {
    const x = left + plotWidth * fraction;
    out.push(
      `<line x1="${fmt(x)}" y1="${fmt(y)}" x2="${fmt(x)}" y2="${fmt(y + 4)}" stroke="${DIM}"/>`,
      `<text x="${fmt(x)}" y="${fmt(y + 16)}" text-anchor="middle" font-size="10" fill="${TEXT}">${value === 0 ? '0' : formatCount(value)}</text>`,
    );
  }
  const what = `${data.unit ?? 'operations'} per key range (${data.timeLabels[0] ?? ''}, ${scale} scale)`;
  out.push(
    `<text x="${fmt(left + plotWidth / 2)}" y="${fmt(y + 36)}" text-anchor="middle" font-size="11" fill="${DIM}">${escapeXml(what)}</text>`,
  );
  return out;
}

/** Time labels under the plot, at most one per 80 px. */
function timeLabels(
  data: HeatmapData,
  left: number,
  cellWidth: number,
  plotWidth: number,
  plotHeight: number,
): string[] {
  const cols = data.timeLabels.length;
  const ticks = Math.max(1, Math.min(cols, Math.floor(plotWidth / 80)));
  const y = TOP + plotHeight;
  const out: string[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < ticks; i++) {
    const c = ticks === 1 ? 0 : Math.round((i * (cols - 1)) / (ticks - 1));
    if (seen.has(c)) continue;
    seen.add(c);
    const x = left + (c + 0.5) * cellWidth;
    out.push(
      `<line x1="${fmt(x)}" y1="${fmt(y)}" x2="${fmt(x)}" y2="${fmt(y + 4)}" stroke="${DIM}"/>`,
      `<text x="${fmt(x)}" y="${fmt(y + 16)}" text-anchor="middle" font-size="10" fill="${TEXT}">${escapeXml(data.timeLabels[c] ?? '')}</text>`,
    );
  }
  out.push(
    `<text x="${fmt(left + plotWidth / 2)}" y="${fmt(y + 36)}" text-anchor="middle" font-size="11" fill="${DIM}">time</text>`,
  );
  return out;
}

/** The colour scale, bright at the top, with the counts at its top, middle and bottom. */
function legend(x: number, plotHeight: number, max: number, scale: 'log' | 'linear', unit: string): string[] {
  const stops: string[] = [];
  for (let level = 0; level < LEVELS; level += 3) {
    stops.push(`<stop offset="${fmt(1 - level / (LEVELS - 1))}" stop-color="${colorOf(level)}"/>`);
  }
  const mid = scale === 'log' ? Math.expm1(Math.log1p(max) / 2) : max / 2;
  return [
    `<defs><linearGradient id="heat" x1="0" y1="0" x2="0" y2="1">${stops.reverse().join('')}</linearGradient></defs>`,
    `<text x="${x}" y="${TOP - 8}" font-size="10" fill="${DIM}">${escapeXml(unit)}</text>`,
    `<rect x="${x}" y="${TOP}" width="14" height="${fmt(plotHeight)}" fill="url(#heat)" stroke="${DIM}" stroke-width="0.5"/>`,
    `<text x="${x + 18}" y="${TOP + 9}" font-size="10" fill="${TEXT}">${formatCount(max)}</text>`,
    `<text x="${x + 18}" y="${fmt(TOP + plotHeight / 2 + 3)}" font-size="10" fill="${TEXT}">${formatCount(mid)}</text>`,
    `<text x="${x + 18}" y="${fmt(TOP + plotHeight)}" font-size="10" fill="${TEXT}">0</text>`,
    `<text x="${x}" y="${fmt(TOP + plotHeight + 16)}" font-size="9" fill="${DIM}">${scale} scale</text>`,
  ];
}

/** Counts for the legend: `950`, `12.3k`, `4.1M`. */
function formatCount(value: number): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(0)}k`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(1)}k`;
  return value >= 10 ? value.toFixed(0) : value.toFixed(1);
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** Text safe inside an XML element or attribute: markup characters escaped, characters XML forbids dropped. @internal */
export function escapeXml(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const control = code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;
    if (control || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) continue;
    out += char === '<' || char === '>' || char === '&' || char === '"' || char === "'" ? `&#${code};` : char;
  }
  return out;
}
