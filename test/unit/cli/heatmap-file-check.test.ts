import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../src/errors/index.js';

afterEach(() => {
  vi.doUnmock('@resvg/resvg-js');
  vi.resetModules();
});

describe('checkHeatmapFile (run before a census reads the table)', () => {
  it('refuses a .png when the optional renderer is not installed, saying to install it', async () => {
    vi.doMock('@resvg/resvg-js', () => {
      throw new Error("Cannot find package '@resvg/resvg-js'");
    });
    const { checkHeatmapFile } = await import('../../../src/cli/heatmap-file.js');
    const error = await checkHeatmapFile('census.png').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe(ValidationError.name);
    expect((error as Error).message).toMatch(/npm install @resvg\/resvg-js/);
    await expect(checkHeatmapFile('census.svg')).resolves.toBeUndefined();
  });

  it('passes a .png when the renderer loads, and refuses an unknown extension', async () => {
    const { checkHeatmapFile } = await import('../../../src/cli/heatmap-file.js');
    await expect(checkHeatmapFile('census.png')).resolves.toBeUndefined();
    await expect(checkHeatmapFile('census.gif')).rejects.toThrow(/cannot tell the heatmap format/);
  });
});
