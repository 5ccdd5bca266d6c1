import type { Command } from 'commander';
import type { ClusterModel } from '../simulate/cluster-model.js';
import type { LayoutAlternative } from '../simulate/layouts.js';
import type { SimulationReport } from '../simulate/report.js';
import { simulateHotspots } from '../simulate/simulate-hotspots.js';
import type { Workload } from '../simulate/workload.js';
import { heatmapFromSimulation } from '../heatmap/heatmap-data.js';
import { CliUsageError, ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { count, formatTable } from './cli-output.js';
import { parseJsonArgument, parseJsonFile, readTextFile } from './cli-values.js';
import { checkHeatmapFile, writeHeatmap } from './heatmap-file.js';
import { heatmapOfDocument } from './heatmap-sources.js';

/** `simulate` (the hotspot simulator over a workload) and `heatmap` (pictures of simulate or census output). */
export function addSimulateCommands(program: Command, run: Run): void {
  program
    .command('simulate')
    .description(
      "predict hotspots: run a write workload over a model of Bigtable's tablets and nodes, for the declared key layout and alternatives",
    )
    .argument('<entity>', 'entity class name or table id')
    .requiredOption(
      '--workload <json|file>',
      'the workload as JSON, or a JSON file: { keys: { <part>: generator }, writesPerSecond, durationSeconds, seed? }',
    )
    .option('--nodes <n>', 'nodes of the simulated cluster', (v) => Number(v))
    .option('--cluster <json|file>', 'more cluster model settings (split size, hot threshold, rebalance interval...)')
    .option('--salts <list>', 'alternatives: salt over each bucket count, e.g. 4,16 (0 means no salt)')
    .option(
      '--alternatives <json|file>',
      'alternatives as JSON: [{ "salt": null }, { "salt": { "buckets": 8, "on": ["userId"] } }]',
    )
    .option(
      '--heatmap <file>',
      'draw each layout as a heatmap (.svg, .html or .png); a layout number is added to the name',
    )
    .action(
      run(
        async (
          ctx: CliContext,
          name: string,
          flags: {
            workload: string;
            nodes?: number;
            cluster?: string;
            salts?: string;
            alternatives?: string;
            heatmap?: string;
          },
        ) => {
          const { entity } = await ctx.entity(name);
          if (flags.heatmap !== undefined) await checkHeatmapFile(flags.heatmap);
          const workload = (await jsonOrFile(ctx, flags.workload, '--workload')) as Workload;
          const cluster = {
            ...(flags.cluster === undefined
              ? {}
              : (asObject(await jsonOrFile(ctx, flags.cluster, '--cluster'), '--cluster') as ClusterModel)),
            ...(flags.nodes === undefined ? {} : { nodes: flags.nodes }),
          };
          const alternatives = [
            ...saltAlternatives(flags.salts),
            ...(flags.alternatives === undefined
              ? []
              : asArray(await jsonOrFile(ctx, flags.alternatives, '--alternatives'))),
          ];
          const progress = ctx.out.progress(`simulating ${count(1 + alternatives.length, 'layout')}`, 1, ' steps');
          let report: SimulationReport;
          try {
            report = simulateHotspots({
              entity,
              workload,
              cluster,
              alternatives,
              onProgress: (done, total) => {
                if (done === 1) progress.setTotal(total);
                progress.update(done);
              },
            });
          } finally {
            progress.stop();
          }
          if (flags.heatmap !== undefined) {
            const max = Math.max(1, ...report.layouts.flatMap((l) => l.rangeOps.flat()));
            for (const [i, layout] of report.layouts.entries()) {
              const file =
                report.layouts.length === 1 ? flags.heatmap : flags.heatmap.replace(/(\.[a-z]+)$/i, `-${i}$1`);
              const path = await writeHeatmap(
                ctx,
                heatmapFromSimulation(report, i),
                file,
                `${report.entity}: ${layout.label}`,
                max,
              );
              ctx.out.note(`heatmap of "${layout.label}" written to ${path}`);
            }
          }
          ctx.out.result(report, renderReport);
          return ExitCode.Ok;
        },
      ),
    );

  program
    .command('heatmap')
    .description('draw a Key-Visualizer-style heatmap from the --json output of simulate or census (or heatmap data)')
    .argument('<input>', 'the JSON file')
    .requiredOption('--out <file>', 'the picture to write: .svg, .html or .png')
    .option('--layout <n|label>', 'which layout of a simulation report', '0')
    .option('--title <text>', 'title above the plot')
    .action(
      run(async (ctx: CliContext, input: string, flags: { out: string; layout: string; title?: string }) => {
        const document = await jsonFile(ctx, input, '<input>');
        const layout = /^\d+$/.test(flags.layout) ? Number(flags.layout) : flags.layout;
        const data = heatmapOfDocument(document, layout);
        const path = await writeHeatmap(ctx, data, flags.out, flags.title ?? titleOf(document, layout));
        ctx.out.result(
          { file: path, timeColumns: data.timeLabels.length, keyRanges: data.keyRanges.length },
          (r) => `heatmap written to ${r.file}`,
        );
        return ExitCode.Ok;
      }),
    );
}

function renderReport(r: SimulationReport): string {
  const rows = r.layouts.map((l) => [
    l.label,
    l.summary.meanBusiestShare.toFixed(2),
    l.summary.imbalance.toFixed(2),
    l.summary.hottestRangeShare.toFixed(3),
    l.summary.finalTablets,
  ]);
  return [
    `${r.entity}: ${r.writes} writes over ${r.nodes} nodes (ideal share per node ${r.idealShare.toFixed(2)}), after ${r.warmupSeconds}s of warm-up`,
    formatTable(['layout', 'busiest node share', 'imbalance', 'hottest range share', 'tablets'], rows),
    'imbalance: the busiest node against an even spread (1 is even; the node count means one node takes everything)',
  ].join('\n');
}

function saltAlternatives(list: string | undefined): LayoutAlternative[] {
  if (list === undefined) return [];
  return list.split(',').map((v) => {
    const n = Number(v.trim());
    if (!Number.isSafeInteger(n) || n < 0 || n > 1000)
      throw new CliUsageError(`--salts has "${v}"`, 'give bucket counts from 0 (no salt) to 1000');
    return n === 0 ? { salt: null } : { salt: { buckets: n } };
  });
}

function titleOf(document: unknown, layout: number | string): string {
  const d = document as { entity?: unknown; table?: unknown; layouts?: { label?: unknown }[] };
  if (Array.isArray(d.layouts)) {
    const l = typeof layout === 'number' ? d.layouts[layout] : d.layouts.find((x) => x.label === layout);
    return `${String(d.entity)}: ${String(l?.label ?? layout)}`;
  }
  // A census names its table (with the table prefix); one saved by an older version only its entity.
  if (typeof d.table === 'string') return `Census of ${d.table}`;
  return typeof d.entity === 'string' ? `Census of ${d.entity}` : 'Heatmap';
}

async function jsonOrFile(ctx: CliContext, value: string, what: string): Promise<unknown> {
  return /^\s*[[{]/.test(value) ? parseJsonArgument(value, what) : jsonFile(ctx, value, what);
}

async function jsonFile(ctx: CliContext, file: string, what: string): Promise<unknown> {
  return parseJsonFile(await readTextFile(ctx.io.cwd, file, what), `${what} ${file}`);
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CliUsageError(`${what} must be a JSON object`, 'e.g. { "nodes": 6 }');
  return value as Record<string, unknown>;
}

function asArray(value: unknown): LayoutAlternative[] {
  if (!Array.isArray(value))
    throw new CliUsageError('--alternatives must be a JSON array', 'e.g. [{ "salt": { "buckets": 8 } }]');
  return value as LayoutAlternative[];
}
