import cliProgress from 'cli-progress';
import { jsonSafe } from './cli-values.js';

/** Where the command writes, and what it knows of its surroundings; tests pass their own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** stdout as a stream, for commands that write a lot to it (`export`): they wait while it is full. */
  readonly stdoutStream?: NodeJS.WritableStream;
  /** The stream progress bars draw on; bars are drawn only when it is a terminal. */
  readonly progressStream: NodeJS.WriteStream | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutStream: process.stdout,
    progressStream: process.stderr.isTTY ? process.stderr : undefined,
    env: process.env,
    cwd: process.cwd(),
  };
}

/** A progress bar on stderr; silent when stderr is not a terminal or the output is JSON. */
export interface Progress {
  update(done: number, payload?: Record<string, string | number>): void;
  setTotal(total: number): void;
  stop(): void;
}

/**
 * Writes one command's result: JSON (one document on stdout, for scripts) or
 * text for people. Progress and notes go to stderr, so stdout stays parseable.
 */
export class Reporter {
  constructor(
    readonly io: CliIo,
    readonly json: boolean,
  ) {}

  /** Prints `data` as JSON, or as the text `render` makes of it. */
  result<D>(data: D, render: (data: D) => string): void {
    this.io.stdout(this.json ? `${JSON.stringify(jsonSafe(data), null, 2)}\n` : ensureNewline(render(data)));
  }

  /** A note for people (stderr), never part of the JSON output. */
  note(text: string): void {
    if (!this.json) this.io.stderr(ensureNewline(text));
  }

  progress(label: string, total: number, unit = ''): Progress {
    const stream = this.json ? undefined : this.io.progressStream;
    if (stream === undefined) return { update() {}, setTotal() {}, stop() {} };
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${label} [{bar}] {value}/{total}${unit} {eta_formatted}`,
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0);
    return {
      update: (done, payload) => bar.update(done, payload),
      setTotal: (n) => bar.setTotal(n),
      stop: () => bar.stop(),
    };
  }
}

/** `n` and the noun, singular for 1: `count(1, 'range')` is `1 range`, `count(3, 'entity', 'entities')` `3 entities`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** Columns padded to their widest cell; numbers right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const line = (r: readonly string[]) =>
    r
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
