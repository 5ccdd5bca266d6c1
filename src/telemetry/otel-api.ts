import type * as OtelApi from '@opentelemetry/api';

/** The part of `@opentelemetry/api` the library uses. @internal */
export type OtelApiModule = Pick<typeof OtelApi, 'metrics' | 'trace' | 'context' | 'SpanKind' | 'SpanStatusCode'>;

/**
 * Loads `@opentelemetry/api`, an optional peer dependency, or resolves with
 * `undefined` when it is not installed: then nothing is measured and nothing
 * fails. It is imported only by a mapper with the `telemetry` option, never
 * at load time. A dynamic `import()` works from both the ES module and the
 * CommonJS build (as `@resvg/resvg-js` is loaded for PNG heatmaps).
 * @internal
 */
export async function loadOtelApi(): Promise<OtelApiModule | undefined> {
  let loaded: Partial<OtelApiModule> & { default?: Partial<OtelApiModule> };
  try {
    loaded = (await import('@opentelemetry/api')) as unknown as typeof loaded;
  } catch {
    return undefined;
  }
  const api = typeof loaded.metrics === 'object' ? loaded : loaded.default;
  if (api?.metrics === undefined || api.trace === undefined || api.context === undefined) return undefined;
  return api as OtelApiModule;
}
