import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';

/** The part of `@resvg/resvg-js` used here. */
interface ResvgModule {
  Resvg: new (
    svg: string,
    options: { font: { loadSystemFonts: boolean; fontFiles?: string[]; defaultFontFamily: string } },
  ) => { render(): { asPng(): Uint8Array } };
}

const PACKAGE = '@resvg/resvg-js';

/**
 * Rasterises an SVG document to PNG bytes with `@resvg/resvg-js`. It is an
 * optional peer dependency (a native renderer with one prebuilt package per
 * platform, no install script), imported on first use only: users who never
 * draw PNGs do not install it. A dynamic `import()` works from both the ES
 * module and the CommonJS build.
 * @internal
 */
export async function renderPng(svg: string, fontFiles: readonly string[] | undefined): Promise<Uint8Array> {
  if (fontFiles !== undefined && (!Array.isArray(fontFiles) || fontFiles.some((f) => typeof f !== 'string'))) {
    throw new ValidationError(
      `renderHeatmap fontFiles must be an array of file paths, got ${preview(fontFiles)}. Fix: list font files, or omit it.`,
    );
  }
  const { Resvg } = await loadResvg();
  const renderer = new Resvg(svg, {
    font: {
      loadSystemFonts: true,
      ...(fontFiles === undefined ? {} : { fontFiles: [...fontFiles] }),
      defaultFontFamily: 'DejaVu Sans',
    },
  });
  return new Uint8Array(renderer.render().asPng());
}

/**
 * Loads `@resvg/resvg-js`, or throws the `ValidationError` that says to install it: call it before long
 * work whose result is to be drawn as PNG (the `census` command checks before it reads a table).
 * @internal
 */
export async function loadResvg(): Promise<ResvgModule> {
  let loaded: Partial<ResvgModule> & { default?: Partial<ResvgModule> };
  try {
    loaded = (await import('@resvg/resvg-js')) as unknown as typeof loaded;
  } catch (err) {
    throw new ValidationError(
      `renderHeatmap format 'png' needs the optional package ${PACKAGE}, which could not be loaded (${err instanceof Error ? err.message : String(err)}). Fix: npm install ${PACKAGE}, or render format 'svg' or 'html'.`,
      { dependency: PACKAGE },
    );
  }
  const Resvg = loaded.Resvg ?? loaded.default?.Resvg;
  if (typeof Resvg !== 'function') {
    throw new ValidationError(`${PACKAGE} has no Resvg class. Fix: install version 2 of ${PACKAGE}.`, {
      dependency: PACKAGE,
    });
  }
  return { Resvg };
}
