/**
 * Soak: `npm run soak -- --seconds 60`. Eight writers (`saveMany`), four
 * ordered salted scanners and two point readers run against the emulator
 * through a loopback fault proxy that resets every connection at intervals.
 * Every row a write reported done must be read back, every scan must return
 * each row once and in key order, and every row present must have been
 * written. Prints throughput and heap at the start and the end; exit code 1
 * when any check fails.
 */
import 'reflect-metadata';
import { createHistogram, monitorEventLoopDelay, performance, type RecordableHistogram } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { writeFileSync, mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BigtableMapper, Column, Entity, Family, KeyPart, PartialWriteError, Salt } from '../src/index.js';
import type { Repository } from '../src/index.js';
import { useEmulator, uniqueTableId } from '../src/testing/index.js';
import { startFaultProxy } from '../test/support/fault-proxy.js';

const USAGE = `Usage: npm run soak -- [--seconds N] [--reset-every-ms N] [--batch N] [--writers N] [--scanners N] [--point-readers N]

  --seconds N          how long the load runs (default 60)
  --reset-every-ms N   reset every proxied connection this often (default 1500; 0: never)
  --batch N            rows per saveMany call (default 100)
  --writers N          concurrent saveMany loops (default 8)
  --scanners N         concurrent ordered salted scans (default 4)
  --point-readers N    concurrent findOne loops (default 2)
  --readers-own-client the point readers use a mapper of their own (their own gRPC channels)
  --readers-in-worker  the point readers run in a worker thread (their own event loop and client)`;
const PAYLOAD = 'x'.repeat(200);

const table = isMainThread ? uniqueTableId('soak') : (workerData as ReaderWorkerData).table;

@Entity({ table })
@Salt({ buckets: 8 })
@Family('d', { gc: { maxVersions: 1 } })
class SoakRow {
  @KeyPart(0, { type: 'string' }) writer!: string;
  @KeyPart(1, { type: 'uint', width: 10 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) payload?: string;
}

interface Tally {
  writes: number;
  uncertainWrites: number;
  rewrites: number;
  scans: number;
  rowsScanned: number;
  pointReads: number;
  resets: number;
  problems: string[];
}

const keyOf = (writer: string, seq: number): string => `${writer}#${seq}`;
const rowOf = (writer: string, seq: number): SoakRow =>
  Object.assign(new SoakRow(), { writer, seq, payload: `${writer}:${seq}:${PAYLOAD}` });

interface SoakOptions {
  seconds: number;
  resetEveryMs: number;
  batch: number;
  writers: number;
  scanners: number;
  pointReaders: number;
  readersOwnClient: boolean;
  readersInWorker: boolean;
}

function options(): SoakOptions | undefined {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      seconds: { type: 'string' },
      'reset-every-ms': { type: 'string' },
      batch: { type: 'string' },
      writers: { type: 'string' },
      scanners: { type: 'string' },
      'point-readers': { type: 'string' },
      'readers-own-client': { type: 'boolean' },
      'readers-in-worker': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) return undefined;
  const int = (name: string, value: string | undefined, fallback: number, min = 1): number => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new Error(`--${name} must be an integer of at least ${min}, got ${value}`);
    return n;
  };
  return {
    seconds: int('seconds', values.seconds, 60),
    resetEveryMs: int('reset-every-ms', values['reset-every-ms'], 1500, 0),
    batch: int('batch', values.batch, 100),
    writers: int('writers', values.writers, 8, 0),
    scanners: int('scanners', values.scanners, 4, 0),
    pointReaders: int('point-readers', values['point-readers'], 2, 0),
    readersOwnClient: values['readers-own-client'] === true,
    readersInWorker: values['readers-in-worker'] === true,
  };
}

/** Rows whose write was confirmed, and rows written but not confirmed (they may or may not be there). */
class Ledger {
  readonly confirmed = new Set<string>();
  readonly attempted = new Set<string>();
  readonly confirmedList: string[] = [];

  attempt(key: string): void {
    this.attempted.add(key);
  }

  confirm(key: string): void {
    if (this.confirmed.has(key)) return;
    this.confirmed.add(key);
    this.confirmedList.push(key);
  }
}

async function writer(
  repo: Repository<SoakRow>,
  name: string,
  batch: number,
  ledger: Ledger,
  tally: Tally,
  until: number,
): Promise<void> {
  let next = 0;
  let pending: SoakRow[] = [];
  while (Date.now() < until) {
    const rows = pending.length > 0 ? pending : Array.from({ length: batch }, () => rowOf(name, next++));
    if (pending.length > 0) tally.rewrites += pending.length;
    pending = [];
    for (const row of rows) ledger.attempt(keyOf(row.writer, row.seq));
    let unconfirmed = new Set<number>();
    try {
      await repo.saveMany(rows, { timeoutMs: 20_000 });
    } catch (err) {
      if (err instanceof PartialWriteError) {
        unconfirmed = new Set(err.failures.map((f) => f.index));
        const notAttempted = (err as { notAttempted?: readonly number[] }).notAttempted;
        for (const index of notAttempted ?? []) unconfirmed.add(index);
      } else {
        unconfirmed = new Set(rows.map((_, i) => i));
      }
    }
    rows.forEach((row, i) => {
      if (unconfirmed.has(i)) pending.push(row);
      else ledger.confirm(keyOf(row.writer, row.seq));
    });
    tally.writes += rows.length - unconfirmed.size;
    tally.uncertainWrites += unconfirmed.size;
  }
}

async function scanner(repo: Repository<SoakRow>, ledger: Ledger, tally: Tally, until: number): Promise<void> {
  while (Date.now() < until) {
    const mustSee = ledger.confirmedList.length;
    const seen = new Set<string>();
    let previous: SoakRow | undefined;
    let cutShort = false;
    try {
      for await (const row of repo.iterate({ select: ['payload'] })) {
        if (Date.now() > until) {
          cutShort = true;
          break;
        }
        const key = keyOf(row.writer, row.seq);
        if (seen.has(key)) tally.problems.push(`scan returned ${key} twice`);
        if (
          previous !== undefined &&
          (previous.writer > row.writer || (previous.writer === row.writer && previous.seq >= row.seq))
        ) {
          tally.problems.push(`scan out of order: ${keyOf(previous.writer, previous.seq)} before ${key}`);
        }
        if (!ledger.attempted.has(key)) tally.problems.push(`scan returned ${key}, which no writer wrote`);
        seen.add(key);
        previous = row;
        tally.rowsScanned += 1;
      }
    } catch (err) {
      tally.problems.push(`scan failed: ${(err as Error).message}`);
      continue;
    }
    if (cutShort) return;
    for (const key of ledger.confirmedList.slice(0, mustSee))
      if (!seen.has(key)) tally.problems.push(`scan missed ${key}, confirmed before the scan started`);
    tally.scans += 1;
  }
}

async function pointReader(
  repo: Repository<SoakRow>,
  ledger: Ledger,
  tally: Tally,
  until: number,
  latency: RecordableHistogram,
): Promise<void> {
  while (Date.now() < until) {
    const list = ledger.confirmedList;
    if (list.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    const key = list[Math.floor(Math.random() * list.length)] as string;
    const [name, seq] = key.split('#') as [string, string];
    try {
      const startedAt = performance.now();
      const found = await repo.findOne({ writer: name, seq: Number(seq) });
      latency.record(Math.max(1, Math.round((performance.now() - startedAt) * 1000)));
      if (found?.payload !== rowOf(name, Number(seq)).payload)
        tally.problems.push(
          `point read of confirmed ${key} returned ${found === undefined ? 'nothing' : 'another value'}`,
        );
    } catch (err) {
      tally.problems.push(`point read of ${key} failed: ${(err as Error).message}`);
    }
    tally.pointReads += 1;
  }
}

function heapMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function main(): Promise<void> {
  const opts = options();
  if (opts === undefined) {
    console.log(USAGE);
    return;
  }
  const emulator = await useEmulator();
  const proxy = await startFaultProxy(emulator.host);
  const connect = (): BigtableMapper =>
    new BigtableMapper({
      emulatorHost: proxy.host,
      instance: 'soak',
      entities: [SoakRow],
      timeouts: { scan: { idleMs: 5_000 }, read: { totalMs: 20_000 }, bulkWrite: { attemptMs: 10_000 } },
    });
  const mapper = connect();
  const readers = opts.readersOwnClient ? connect() : mapper;
  const tally: Tally = {
    writes: 0,
    uncertainWrites: 0,
    rewrites: 0,
    scans: 0,
    rowsScanned: 0,
    pointReads: 0,
    resets: 0,
    problems: [],
  };
  try {
    await mapper.sync();
    const repo = mapper.getRepository(SoakRow);
    const ledger = new Ledger();
    const heapStart = heapMiB();
    const started = Date.now();
    const until = started + opts.seconds * 1000;
    const resets =
      opts.resetEveryMs === 0
        ? undefined
        : setInterval(() => {
            proxy.resetAll();
            tally.resets += 1;
          }, opts.resetEveryMs);
    // Point reads of the first confirmed rows while only the writers run would read nothing: seed one batch first.
    if (opts.writers === 0) await writer(repo, 'seed', opts.batch, ledger, tally, Date.now() + 200);
    const latency = createHistogram();
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    await Promise.all([
      ...Array.from({ length: opts.writers }, (_, w) => writer(repo, `w${w}`, opts.batch, ledger, tally, until)),
      ...Array.from({ length: opts.scanners }, () => scanner(repo, ledger, tally, until)),
      ...(opts.readersInWorker
        ? [readersInWorker(proxy.host, opts.pointReaders, ledger, tally, until, latency)]
        : Array.from({ length: opts.pointReaders }, () =>
            pointReader(readers.getRepository(SoakRow), ledger, tally, until, latency),
          )),
    ]);
    loopDelay.disable();
    clearInterval(resets);
    const elapsed = (Date.now() - started) / 1000;
    const final = new Set<string>();
    for await (const row of repo.iterate({ select: ['payload'] })) {
      const key = keyOf(row.writer, row.seq);
      if (final.has(key)) tally.problems.push(`final scan returned ${key} twice`);
      final.add(key);
      if (!ledger.attempted.has(key)) tally.problems.push(`final scan returned ${key}, which no writer wrote`);
    }
    let lost = 0;
    for (const key of ledger.confirmed) if (!final.has(key)) lost += 1;
    if (lost > 0) tally.problems.push(`${lost} confirmed rows are missing after the run`);
    const heapEnd = heapMiB();
    const report = {
      seconds: elapsed,
      resetsInjected: tally.resets,
      connectionsOpened: proxy.connectionsOpened,
      rowsConfirmed: ledger.confirmed.size,
      rowsInTable: final.size,
      writesPerSecond: Math.round(tally.writes / elapsed),
      uncertainWrites: tally.uncertainWrites,
      rewrites: tally.rewrites,
      scansCompleted: tally.scans,
      rowsScannedPerSecond: Math.round(tally.rowsScanned / elapsed),
      pointReadsPerSecond: Math.round(tally.pointReads / elapsed),
      pointReadP50Ms: Number((latency.percentile(50) / 1000).toFixed(1)),
      pointReadP99Ms: Number((latency.percentile(99) / 1000).toFixed(1)),
      eventLoopDelayP50Ms: Number((loopDelay.percentile(50) / 1e6).toFixed(1)),
      eventLoopDelayP99Ms: Number((loopDelay.percentile(99) / 1e6).toFixed(1)),
      heapStartMiB: Number(heapStart.toFixed(1)),
      heapEndMiB: Number(heapEnd.toFixed(1)),
      problems: tally.problems.length,
      node: process.version,
    };
    console.table(report);
    for (const problem of tally.problems.slice(0, 20)) console.error(`problem: ${problem}`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/soak-latest.json',
      `${JSON.stringify({ ...report, firstProblems: tally.problems.slice(0, 20) }, null, 2)}\n`,
    );
    if (tally.problems.length > 0) process.exitCode = 1;
    else console.log('soak: PASS (no row lost, duplicated, out of order or unexpected)');
  } finally {
    if (readers !== mapper) await readers.close();
    await mapper.close();
    await proxy.close();
    await emulator.stop();
  }
}

interface ReaderWorkerData {
  readonly table: string;
  readonly host: string;
  readonly readers: number;
  readonly until: number;
}

/**
 * The point readers in a worker thread, with their own event loop and client: the main thread sends
 * samples of confirmed keys; the worker answers its reads, misses and latencies (in microseconds).
 */
async function readersInWorker(
  host: string,
  readers: number,
  ledger: Ledger,
  tally: Tally,
  until: number,
  latency: RecordableHistogram,
): Promise<void> {
  const data: ReaderWorkerData = { table, host, readers, until };
  // A worker does not inherit the TypeScript loader: its first script registers it, then loads this file.
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(bootstrap, { eval: true, workerData: data });
  const sample = (): void => {
    const list = ledger.confirmedList;
    worker.postMessage(
      Array.from({ length: Math.min(1000, list.length) }, () => list[Math.floor(Math.random() * list.length)]),
    );
  };
  sample();
  const samples = setInterval(sample, 200);
  try {
    const result = await new Promise<{ reads: number; problems: string[]; micros: number[] }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    tally.pointReads += result.reads;
    tally.problems.push(...result.problems);
    for (const micros of result.micros) latency.record(Math.max(1, micros));
  } finally {
    clearInterval(samples);
    await worker.terminate();
  }
}

async function readerWorkerMain(): Promise<void> {
  const { host, readers, until } = workerData as ReaderWorkerData;
  const mapper = new BigtableMapper({ emulatorHost: host, instance: 'soak', entities: [SoakRow] });
  const repo = mapper.getRepository(SoakRow);
  let keys: string[] = [];
  parentPort?.on('message', (sample: string[]) => (keys = sample));
  const micros: number[] = [];
  const problems: string[] = [];
  const read = async (): Promise<void> => {
    while (Date.now() < until) {
      if (keys.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const key = keys[Math.floor(Math.random() * keys.length)] as string;
      const [name, seq] = key.split('#') as [string, string];
      const startedAt = performance.now();
      const found = await repo.findOne({ writer: name, seq: Number(seq) }).catch((err: unknown) => {
        problems.push(`point read of ${key} failed: ${(err as Error).message}`);
        return null;
      });
      micros.push(Math.round((performance.now() - startedAt) * 1000));
      if (found === undefined) problems.push(`point read of confirmed ${key} returned nothing`);
    }
  };
  await Promise.all(Array.from({ length: readers }, read));
  await mapper.close();
  parentPort?.postMessage({ reads: micros.length, problems, micros });
}

(isMainThread ? main() : readerWorkerMain()).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
