import { writeFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { HeatmapData } from '../heatmap/heatmap-data.js';
import { renderHeatmap } from '../heatmap/render-heatmap.js';
import { loadResvg } from '../heatmap/render-png.js';
import { CliUsageError } from './cli-errors.js';
import type { CliContext } from './cli-context.js';

const FORMATS = { '.svg': 'svg', '.html': 'html', '.png': 'png' } as const;

/**
 * Renders `data` in the format the file name's extension says and writes it;
 * resolves to the absolute path. `max` puts several pictures on one colour scale.
 */
export async function writeHeatmap(
  ctx: CliContext,
  data: HeatmapData,
  file: string,
  title: string,
  max?: number,
): Promise<string> {
  const format = heatmapFormat(file);
  const path = resolve(ctx.io.cwd, file);
  const common = max === undefined ? { title } : { title, max };
  const content =
    format === 'png' ? await renderHeatmap(data, { ...common, format }) : renderHeatmap(data, { ...common, format });
  await writeFile(path, content);
  return path;
}

/**
 * Checks, before any long work, that a heatmap can be written to `file`: a known extension, and for
 * `.png` the optional renderer installed (so `census --heatmap x.png` fails before it reads the table).
 */
export async function checkHeatmapFile(file: string): Promise<void> {
  if (heatmapFormat(file) === 'png') await loadResvg();
}

function heatmapFormat(file: string): 'svg' | 'html' | 'png' {
  const format = (FORMATS as Record<string, 'svg' | 'html' | 'png' | undefined>)[extname(file).toLowerCase()];
  if (format === undefined)
    throw new CliUsageError(`cannot tell the heatmap format of "${file}"`, 'name the file .svg, .html or .png');
  return format;
}
