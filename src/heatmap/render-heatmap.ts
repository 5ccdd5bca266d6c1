import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import { checkHeatmapData, type HeatmapData } from './heatmap-data.js';
import { renderPng } from './render-png.js';
import { escapeXml, renderSvg, type SvgOptions } from './render-svg.js';

/**
 * How {@link renderHeatmap} draws.
 *
 * @example
 * ```ts
 * const options: HeatmapOptions = { format: 'svg', title: 'Timestamp-first keys', width: 1200, scale: 'log' };
 * ```
 */
export interface HeatmapOptions {
  /** `svg`: an SVG document; `html`: a self-contained page around it; `png`: the SVG rasterised (needs `@resvg/resvg-js`). */
  readonly format: 'svg' | 'html' | 'png';
  /** Title above the plot. */
  readonly title: string;
  /** A second, smaller line under the title. */
  readonly subtitle?: string;
  /** Image width in pixels (200–8000). Default 960. */
  readonly width?: number;
  /** Image height in pixels (150–8000). Default 540. */
  readonly height?: number;
  /**
   * Colour scale: `log` or `linear`. Default: `log` (like Key Visualizer) over time, where it shows hot spots and
   * the faint background together; `linear` for one column (a census, one moment), drawn as bars as long as
   * their counts, where a log scale would make 1,333 and 4,668 rows look alike.
   */
  readonly scale?: 'log' | 'linear';
  /** Count at the top of the colour scale. Default: the largest count. Give several heatmaps the same value to compare them. */
  readonly max?: number;
  /** PNG only: font files to draw the text with, for machines without system fonts. */
  readonly fontFiles?: readonly string[];
}

/**
 * Draws a heatmap like Key Visualizer's: time on the x axis, the key space
 * on the y axis in key order, a dark-to-bright colour per cell, key prefixes
 * and salt buckets labelled on the key axis, and a legend. `svg` and `html`
 * return text at once (the HTML page has the SVG inline and its CSS in a
 * `<style>` element: no external assets).
 *
 * @example
 * ```ts
 * const svg = renderHeatmap(heatmapFromSimulation(report), { format: 'svg', title: 'Readings' });
 * await writeFile('readings.svg', svg);
 * ```
 */
export function renderHeatmap(data: HeatmapData, options: HeatmapOptions & { readonly format: 'svg' | 'html' }): string;
/**
 * `png` renders the SVG with `@resvg/resvg-js`, an optional peer dependency
 * loaded only here (install it to draw PNGs); the promise rejects with a
 * `ValidationError` saying so when it is missing.
 *
 * @example
 * ```ts
 * const png = await renderHeatmap(data, { format: 'png', title: 'Readings' });
 * await writeFile('readings.png', png);
 * ```
 */
export function renderHeatmap(
  data: HeatmapData,
  options: HeatmapOptions & { readonly format: 'png' },
): Promise<Uint8Array>;
export function renderHeatmap(data: HeatmapData, options: HeatmapOptions): string | Promise<Uint8Array> {
  // A PNG caller awaits: every failure, bad input included, is a rejection.
  if (options?.format === 'png') return drawPng(data, options);
  const svgOptions = resolveOptions(options, data);
  const svg = renderSvg(data, svgOptions);
  if (options.format === 'svg') return svg;
  if (options.format === 'html') return htmlPage(svg, svgOptions.title);
  throw new ValidationError(
    `renderHeatmap format must be 'svg', 'html' or 'png', got ${preview((options as { format: unknown }).format)}. Fix: pick one of them.`,
  );
}

async function drawPng(data: HeatmapData, options: HeatmapOptions): Promise<Uint8Array> {
  const svgOptions = resolveOptions(options, data);
  return renderPng(renderSvg(data, svgOptions), options.fontFiles);
}

/** Checks the options, then the data, and resolves the defaults (the scale's depends on the data). */
function resolveOptions(options: HeatmapOptions, data: HeatmapData): SvgOptions {
  if (options === null || typeof options !== 'object') {
    throw new ValidationError(
      `renderHeatmap needs options { format, title }, got ${preview(options)}. Fix: pass them.`,
    );
  }
  const { title, subtitle, scale, max } = options;
  if (typeof title !== 'string' || title.length > 300) {
    throw new ValidationError(
      `renderHeatmap title must be text of at most 300 characters, got ${preview(title)}. Fix: give a short title.`,
    );
  }
  if (subtitle !== undefined && (typeof subtitle !== 'string' || subtitle.length > 500)) {
    throw new ValidationError(
      `renderHeatmap subtitle must be text of at most 500 characters, got ${preview(subtitle)}. Fix: shorten it.`,
    );
  }
  if (scale !== undefined && scale !== 'log' && scale !== 'linear') {
    throw new ValidationError(`renderHeatmap scale must be 'log' or 'linear', got ${preview(scale)}. Fix: pick one.`);
  }
  if (max !== undefined && (typeof max !== 'number' || !Number.isFinite(max) || max <= 0)) {
    throw new ValidationError(
      `renderHeatmap max must be a positive number, got ${preview(max)}. Fix: give the top of the scale, or omit it.`,
    );
  }
  const width = size('width', options.width, 960, 200);
  const height = size('height', options.height, 540, 150);
  checkHeatmapData(data);
  // One column is one moment (a census): its counts are compared by length, on a linear scale.
  const defaultScale = data.timeLabels.length === 1 ? 'linear' : 'log';
  return { title, subtitle, width, height, scale: scale ?? defaultScale, max };
}

function size(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > 8000) {
    throw new ValidationError(
      `renderHeatmap ${name} must be an integer from ${min} to 8000, got ${preview(value)}. Fix: give pixels in that range.`,
    );
  }
  return value;
}

function htmlPage(svg: string, title: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeXml(title)}</title>`,
    '<style>body{margin:0;padding:16px;background:#0f1114;color:#e6e6e6;font-family:sans-serif}svg{max-width:100%;height:auto}</style>',
    '</head>',
    '<body>',
    svg.replace(/^<\?xml[^>]*>\n?/, ''),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
