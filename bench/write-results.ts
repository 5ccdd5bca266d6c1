import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { markdownReport } from './report.js';
import type { BenchResults } from './results.js';

/** Writes `latest.json` and `latest.md` into `dir` (created if missing); returns the file names. @example `await writeResults(results, 'bench/results')` */
export async function writeResults(results: BenchResults, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(join(dir, 'latest.md'), markdownReport(results));
  return ['latest.json', 'latest.md'];
}
