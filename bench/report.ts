import type {
  BackpressureResult,
  BenchResults,
  CpuResult,
  EvennessResult,
  MemoryResult,
  ThroughputResult,
  WorkloadResult,
} from './results.js';
import { num, toMarkdown, toText, type Section } from './table-format.js';

function throughputSection(w: ThroughputResult): Section {
  return {
    title: w.title,
    headers: [
      'variant',
      'side',
      'rows',
      'rows/s (median)',
      'runs (rows/s)',
      'node CPU s',
      'first row ms',
      'peak heap +MiB',
      'live heap +MiB',
    ],
    numeric: [2, 3, 5, 6, 7, 8],
    rows: w.variants.map((v) => [
      v.label,
      v.side,
      num(v.median.rows),
      num(v.median.rowsPerSec),
      v.runs.map((r) => num(r.rowsPerSec)).join(' / '),
      num(v.median.cpuMs / 1000, 2),
      num(v.median.firstRowMs, 1),
      num(v.median.peakHeapDeltaMB, 1),
      num(v.median.liveHeapMidMB, 1),
    ]),
    notes: w.ratios.map((r) => `${r.label}: ${num(r.value, 3)}`),
  };
}

function cpuSection(w: CpuResult): Section {
  return {
    title: w.title,
    headers: ['step', 'side', 'ns/entity'],
    numeric: [2],
    rows: w.items.map((i) => [i.label, i.side, num(i.nsPerEntity)]),
    notes: w.ratios.map((r) => `${r.label}: ${num(r.value, 3)}`),
  };
}

function evennessSection(w: EvennessResult): Section {
  return {
    title: `${w.title} (${w.keyPattern})`,
    headers: ['preset', 'buckets', 'prefixes', 'min', 'max', 'max/min'],
    numeric: [1, 2, 3, 4, 5],
    rows: w.rows.map((r) => [
      r.preset,
      String(r.buckets),
      String(r.prefixes),
      num(r.min),
      num(r.max),
      num(r.ratio ?? undefined, 4),
    ]),
    notes: w.rows.flatMap((r) => (r.note === undefined ? [] : [`${r.preset} x ${r.buckets}: ${r.note}`])),
  };
}

function memorySection(w: MemoryResult): Section {
  return {
    title: w.title,
    headers: [
      'variant',
      'rows',
      'rows/s',
      'heap before MiB',
      'peak heap +MiB',
      'peak RSS MiB',
      'live heap +MiB after GC, per eighth of the scan',
    ],
    numeric: [1, 2, 3, 4, 5],
    rows: w.variants.map((v) => [
      v.label,
      num(v.rows),
      num(v.rowsPerSec),
      num(v.baselineHeapMB, 1),
      num(v.peakHeapDeltaMB, 1),
      num(v.peakRssMB),
      v.liveByEighthMB.map((x) => num(x, 1)).join(' '),
    ]),
    notes: [`bounded: ${w.bounded ? 'yes' : 'no'} (${w.boundedRule})`],
  };
}

function backpressureSection(w: BackpressureResult): Section {
  const l = w.addLatencyMs;
  return {
    title: w.title,
    headers: [
      'producer rows/s',
      'write rows/s',
      'producer / write',
      'peak heap +MiB',
      'live heap max +MiB',
      'cap MiB',
      'add() ms p50',
      'p90',
      'p99',
      'p99.9',
      'max',
    ],
    numeric: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    rows: [
      [
        num(w.producerRowsPerSec),
        num(w.writeRowsPerSec),
        num(w.producerSpeedup, 1),
        num(w.peakHeapDeltaMB, 1),
        num(w.liveHeapMaxMB, 1),
        num(w.capMB),
        num(l.p50, 3),
        num(l.p90, 3),
        num(l.p99, 3),
        num(l.p999, 3),
        num(l.max, 1),
      ],
    ],
    notes: [
      `bounded: ${w.bounded ? 'yes' : 'no'} (live heap after a full GC, at every eighth, <= cap + ${w.heapConstantMB} MiB)`,
    ],
  };
}

function workloadSection(w: WorkloadResult): Section {
  switch (w.kind) {
    case 'throughput':
      return throughputSection(w);
    case 'cpu':
      return cpuSection(w);
    case 'evenness':
      return evennessSection(w);
    case 'memory':
      return memorySection(w);
    case 'backpressure':
      return backpressureSection(w);
  }
}

/** Every section of a report: machine, one per workload, targets. @example `reportSections(results).map(toText)` */
export function reportSections(results: BenchResults): Section[] {
  const m = results.machine;
  const machine: Section = {
    title: 'Machine',
    headers: ['cpu', 'cores', 'memory GiB', 'node', 'emulator'],
    rows: [[m.cpuModel, String(m.cores), num(m.totalMemoryGiB, 1), m.node, m.emulator]],
    notes: [
      `${results.startedAt}, ${num(results.durationMs / 1000, 0)} s in total (${Object.entries(results.durationsMs)
        .map(([id, ms]) => `${id} ${num(ms / 1000, 0)} s`)
        .join(', ')})`,
      `1-minute load average at start / end: ${m.loadAverage.start} / ${m.loadAverage.end} on ${m.cores} cores; GC exposed for memory baselines: ${m.gcExposed ? 'yes' : 'no'}`,
    ],
  };
  const targets: Section = {
    title: 'Targets (ratios measured in this run)',
    headers: ['target', 'measured', 'threshold', 'result'],
    rows: results.targets.map((t) => [
      t.description,
      typeof t.measured === 'boolean' ? String(t.measured) : num(t.measured ?? undefined, 3),
      t.threshold,
      t.pass ? 'PASS' : 'MISS',
    ]),
  };
  return [machine, ...results.workloads.map(workloadSection), targets];
}

/** The report for the terminal. @example `console.log(textReport(results))` */
export function textReport(results: BenchResults): string {
  return reportSections(results).map(toText).join('\n\n');
}

/** The report as markdown (`bench/results/latest.md`). @example `await writeFile(path, markdownReport(results))` */
export function markdownReport(results: BenchResults): string {
  return [
    '# bigtable-mapper benchmark: latest run',
    '',
    'Generated by `npm run bench`; see docs/performance.md for the method.',
    '',
    reportSections(results).map(toMarkdown).join('\n\n'),
    '',
  ].join('\n');
}
