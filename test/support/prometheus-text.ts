/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4, as
 * `@opentelemetry/exporter-prometheus` writes it, with its `# UNIT` lines): the
 * metric families with their HELP, TYPE and UNIT, and every sample with its
 * labels and value. Any line it does not understand is an error naming the
 * line, so a test never passes on text it misread.
 */

/** One sample line: `name{label="value",...} value`. */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The type a `# TYPE` line gives a family. */
export type PromType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

/** A metric family: its `# HELP`, `# TYPE` and `# UNIT`, and its samples in the order written. */
export interface PromFamily {
  readonly name: string;
  help: string | undefined;
  type: PromType;
  unit: string | undefined;
  readonly samples: PromSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: readonly PromType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
/** The sample-name suffixes that belong to the family without them, per family type. */
const SUFFIXES: Readonly<Record<PromType, readonly string[]>> = {
  counter: [],
  gauge: [],
  untyped: [],
  histogram: ['_bucket', '_count', '_sum'],
  summary: ['_count', '_sum'],
};

/**
 * Parses exposition text into its families, keyed by family name (the
 * histogram `x` holds the samples `x_bucket`, `x_count` and `x_sum`). Throws
 * on a malformed line, a sample of no declared family, a repeated TYPE or a
 * repeated sample (same name and labels).
 *
 * @example
 * ```ts
 * const families = parsePrometheusText('# TYPE hits_total counter\nhits_total{path="/"} 3\n');
 * families.get('hits_total')?.samples[0]?.value; // 3
 * ```
 */
export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  const seen = new Set<string>();
  const family = (name: string): PromFamily => {
    let found = families.get(name);
    if (found === undefined) {
      found = { name, help: undefined, type: 'untyped', unit: undefined, samples: [] };
      families.set(name, found);
    }
    return found;
  };
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const where = `line ${index + 1} (${JSON.stringify(raw.slice(0, 120))})`;
    if (line === '') continue;
    if (line.startsWith('#')) {
      const meta = /^#\s+(HELP|TYPE|UNIT)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (meta === null) continue; // a plain comment
      const [, keyword, name = '', rest = ''] = meta;
      if (!NAME.test(name)) throw new Error(`prometheus text: bad metric name in ${where}`);
      const target = family(name);
      if (keyword === 'HELP') target.help = unescapeHelp(rest);
      else if (keyword === 'UNIT') target.unit = rest.trim();
      else {
        if (!(TYPES as readonly string[]).includes(rest.trim()))
          throw new Error(`prometheus text: unknown type in ${where}`);
        if (target.samples.length > 0 || seen.has(`type:${name}`))
          throw new Error(`prometheus text: TYPE after samples or repeated in ${where}`);
        seen.add(`type:${name}`);
        target.type = rest.trim() as PromType;
      }
      continue;
    }
    const sample = parseSample(line, where);
    const owner = ownerOf(sample.name, families);
    if (owner === undefined) throw new Error(`prometheus text: sample of no declared family in ${where}`);
    const identity = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(identity)) throw new Error(`prometheus text: repeated sample in ${where}`);
    seen.add(identity);
    owner.samples.push(sample);
  }
  return families;
}

function ownerOf(sampleName: string, families: ReadonlyMap<string, PromFamily>): PromFamily | undefined {
  const exact = families.get(sampleName);
  if (exact !== undefined && SUFFIXES[exact.type].length === 0) return exact;
  for (const candidate of families.values())
    for (const suffix of SUFFIXES[candidate.type]) if (sampleName === candidate.name + suffix) return candidate;
  return undefined;
}

function parseSample(line: string, where: string): PromSample {
  const nameEnd = line.search(/[{\s]/);
  if (nameEnd <= 0) throw new Error(`prometheus text: no value in ${where}`);
  const name = line.slice(0, nameEnd);
  if (!NAME.test(name)) throw new Error(`prometheus text: bad metric name in ${where}`);
  const labels: Record<string, string> = {};
  let at = nameEnd;
  if (line[at] === '{') {
    at += 1;
    while (line[at] !== '}') {
      const eq = line.indexOf('=', at);
      if (eq < 0) throw new Error(`prometheus text: unterminated labels in ${where}`);
      const label = line.slice(at, eq).trim();
      if (!LABEL_NAME.test(label)) throw new Error(`prometheus text: bad label name ${label} in ${where}`);
      if (label in labels) throw new Error(`prometheus text: repeated label ${label} in ${where}`);
      if (line[eq + 1] !== '"') throw new Error(`prometheus text: unquoted label value in ${where}`);
      const { value, end } = readQuoted(line, eq + 2, where);
      labels[label] = value;
      at = end;
      if (line[at] === ',') at += 1;
      else if (line[at] !== '}') throw new Error(`prometheus text: expected , or } in ${where}`);
    }
    at += 1;
  }
  const fields = line.slice(at).trim().split(/\s+/);
  if (fields.length < 1 || fields.length > 2 || fields[0] === '')
    throw new Error(`prometheus text: expected a value and an optional timestamp in ${where}`);
  const value = parseValue(fields[0] as string, where);
  if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1]))
    throw new Error(`prometheus text: bad timestamp in ${where}`);
  return { name, labels, value };
}

function readQuoted(line: string, start: number, where: string): { value: string; end: number } {
  let value = '';
  for (let i = start; i < line.length; i++) {
    const c = line[i];
    if (c === '"') return { value, end: i + 1 };
    if (c !== '\\') {
      value += c;
      continue;
    }
    const next = line[++i];
    if (next === 'n') value += '\n';
    else if (next === '\\' || next === '"') value += next;
    else throw new Error(`prometheus text: bad escape \\${next ?? ''} in ${where}`);
  }
  throw new Error(`prometheus text: unterminated label value in ${where}`);
}

function parseValue(text: string, where: string): number {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`prometheus text: bad value in ${where}`);
  return Number(text);
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}
