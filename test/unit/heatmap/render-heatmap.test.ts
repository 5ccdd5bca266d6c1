import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors/errors.js';
import { heatmapFromCensus, heatmapFromSimulation, type HeatmapData } from '../../../src/heatmap/heatmap-data.js';
import { renderHeatmap } from '../../../src/heatmap/render-heatmap.js';
import { simulateHotspots } from '../../../src/simulate/simulate-hotspots.js';
import { SaltedUserEvents } from '../simulate/seed-entities.js';
import { checkXml } from './xml-check.js';

const data: HeatmapData = {
  timeLabels: ['0s', '10s', '20s'],
  keyRanges: [
    { label: '00#a<&>"\'', start: '00#a', bucket: 0 },
    { label: '00#m', start: '00#m', bucket: 0 },
    { label: '01#a', start: '01#a', bucket: 1 },
  ],
  counts: [
    [0, 5, 1],
    [2, 900, 0],
    [0, 7, 3],
  ],
  unit: 'writes',
};

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('renderHeatmap svg', () => {
  const svg = renderHeatmap(data, { format: 'svg', title: 'Hot & cold', subtitle: 'a <test>' });

  it('is well-formed XML with one svg root', () => {
    const { problems, elements } = checkXml(svg);
    expect(problems).toEqual([]);
    expect(elements[0]).toBe('svg');
  });

  it('labels the title, the time axis, the key prefixes, the salt buckets and the legend', () => {
    expect(svg).toContain('>Hot &#38; cold</text>');
    expect(svg).toContain('>a &#60;test&#62;</text>');
    for (const label of ['0s', '10s', '20s']) expect(svg).toContain(`>${label}</text>`);
    expect(svg).toContain('>00#a&#60;&#38;&#62;&#34;&#39;</text>');
    expect(svg).toContain('>01#a</text>');
    expect(svg).toContain('>salt</text>');
    expect(svg).toMatch(/>0<\/text>[\s\S]*>1<\/text>/); // bucket numbers in the strip
    expect(svg).toContain('>writes</text>');
    expect(svg).toContain('>900</text>'); // top of the scale
    expect(svg).toContain('linearGradient');
  });

  it('draws the hottest cell brightest and leaves empty cells black', () => {
    const fills = [
      ...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" fill="(#[0-9a-f]{6})"\/>/g),
    ].map((m) => m[1]);
    const brightness = (hex: string) =>
      parseInt(hex.slice(1, 3), 16) + parseInt(hex.slice(3, 5), 16) + parseInt(hex.slice(5, 7), 16);
    const cells = fills.filter((f): f is string => f !== undefined).map(brightness);
    expect(Math.max(...cells)).toBe(brightness('#fffabe'));
    // 6 of the 9 cells are non-zero; zero cells are not drawn over the black plot.
    expect(svg.match(/<g shape-rendering="crispEdges">([\s\S]*?)<\/g>/)?.[1]?.match(/<rect /g)).toHaveLength(6);
  });

  it('merges a run of equal cells into one rectangle', () => {
    const flat = renderHeatmap(
      { timeLabels: ['a', 'b', 'c', 'd'], keyRanges: [{ label: 'k', start: 'k' }], counts: [[1], [1], [1], [1]] },
      { format: 'svg', title: 't' },
    );
    expect(flat.match(/<g shape-rendering="crispEdges">([\s\S]*?)<\/g>/)?.[1]?.match(/<rect /g)).toHaveLength(1);
  });
});

describe('renderHeatmap of a census (one moment, one column)', () => {
  const census = heatmapFromCensus(
    [
      { start: '00#', label: 'bucket 0', bucket: 0, rows: 1333 },
      { start: '01#', label: 'bucket 1', bucket: 1, rows: 4668 },
      { start: '02#', label: 'bucket 2', bucket: 2, rows: 0 },
    ],
    { measure: 'rows' },
  );
  const svg = renderHeatmap(census, { format: 'svg', title: 'Census of cli_events', width: 960 });
  const bars = [
    ...(svg.match(/<g shape-rendering="crispEdges">([\s\S]*?)<\/g>/)?.[1] ?? '').matchAll(/\swidth="([\d.]+)"/g),
  ].map((m) => Number(m[1]));

  it('is well-formed, with no time axis: a census is not a time series', () => {
    expect(checkXml(svg).problems).toEqual([]);
    expect(svg).not.toContain('>time</text>');
    expect(svg).toContain('>Census of cli_events</text>');
  });

  it('draws each range as a bar as long as its count, on a linear scale, so 1,333 and 4,668 rows look apart', () => {
    expect(svg).toContain('>linear scale</text>');
    expect(bars).toHaveLength(2);
    expect(bars[0]! / bars[1]!).toBeCloseTo(1333 / 4668, 2);
  });

  it('keeps the log scale and the time axis for data over time, and the scale a caller asks for', () => {
    const overTime = renderHeatmap(data, { format: 'svg', title: 't' });
    expect(overTime).toContain('>log scale</text>');
    expect(overTime).toContain('>time</text>');
    expect(renderHeatmap(census, { format: 'svg', title: 't', scale: 'log' })).toContain('>log scale</text>');
  });
});

describe('renderHeatmap html', () => {
  it('is a self-contained page: the SVG inline, CSS in a style element, nothing fetched', () => {
    const html = renderHeatmap(data, { format: 'html', title: 'Page' });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(html).not.toMatch(/<(script|link|img)\b|src=|@import|url\(http/);
    const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>') + 6);
    expect(checkXml(svg).problems).toEqual([]);
  });
});

describe('renderHeatmap png', () => {
  it('renders a PNG of the requested size', async () => {
    const png = await renderHeatmap(data, { format: 'png', title: 'PNG', width: 640, height: 360 });
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(pngSize(png)).toEqual({ width: 640, height: 360 });
  });

  it('rejects bad input as a rejection, not a throw', async () => {
    const result = renderHeatmap({ ...data, counts: [[1]] }, { format: 'png', title: 'bad' });
    await expect(result).rejects.toThrow(ValidationError);
  });
});

describe('heatmap data', () => {
  it.each([
    [{ ...data, counts: [[1, 2, 3]] }, /HeatmapData\.counts must have one row per time label \(3\)/],
    [
      {
        ...data,
        counts: [
          [1, 2],
          [1, 2],
          [1, 2],
        ],
      },
      /HeatmapData\.counts\[0\] must have one entry per key range \(3\)/,
    ],
    [
      {
        ...data,
        counts: [
          [1, -1, 0],
          [0, 0, 0],
          [0, 0, 0],
        ],
      },
      /HeatmapData\.counts\[0\] holds -1/,
    ],
    [{ ...data, timeLabels: [] }, /HeatmapData\.timeLabels must list 1 to 4096 labels/],
  ])('rejects malformed data: %#', (bad, message) => {
    expect(() => renderHeatmap(bad as HeatmapData, { format: 'svg', title: 't' })).toThrow(message);
  });

  it('rejects options out of range', () => {
    expect(() => renderHeatmap(data, { format: 'svg', title: 't', width: 1e6 })).toThrow(
      /width must be an integer from 200 to 8000/,
    );
    expect(() => renderHeatmap(data, { format: 'gif' as 'svg', title: 't' })).toThrow(
      /format must be 'svg', 'html' or 'png'/,
    );
  });

  it('takes a layout of a simulation report by index or label', () => {
    const report = simulateHotspots({
      entity: SaltedUserEvents,
      workload: {
        keys: { userId: { kind: 'uniform', values: 50 }, at: { kind: 'sequential-time' } },
        writesPerSecond: 100,
        durationSeconds: 60,
      },
      alternatives: [{ salt: null }],
      samplesPerStep: 10,
      keyRanges: 16,
    });
    const salted = heatmapFromSimulation(report);
    expect(salted.timeLabels).toHaveLength(60);
    expect(salted.timeLabels[0]).toBe('1s');
    expect(salted.keyRanges.every((r) => r.bucket !== undefined)).toBe(true);
    expect(heatmapFromSimulation(report, 'no salt').keyRanges.some((r) => r.bucket !== undefined)).toBe(false);
    expect(() => heatmapFromSimulation(report, 'nope')).toThrow(/no layout "nope"/);
  });

  it('turns a census into one time column of rows or bytes', () => {
    const census = [
      { start: '00#', rows: 10, bytes: 1000, bucket: 0 },
      { start: '01#', rows: 12, bytes: 900, bucket: 1, label: 'bucket 1' },
    ];
    expect(heatmapFromCensus(census, { measure: 'bytes' })).toEqual({
      timeLabels: ['census'],
      keyRanges: [
        { label: '00#', start: '00#', bucket: 0 },
        { label: 'bucket 1', start: '01#', bucket: 1 },
      ],
      counts: [[1000, 900]],
      unit: 'bytes',
    });
    expect(() => heatmapFromCensus([{ start: '', rows: 1 }], { measure: 'bytes' })).toThrow(/census\[0\]\.bytes/);
  });
});
