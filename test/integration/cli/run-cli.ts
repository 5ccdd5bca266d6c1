import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli-program.js';
import type { CliIo } from '../../../src/cli/cli-output.js';

/** The repository root, where `examples/entities.ts` lives. */
export const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** What one in-process run of the command line printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for `--json` runs). */
  json(): unknown;
}

/** Runs the command line in this process, capturing its output; `env` replaces the process environment. */
export async function cli(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    progressStream: undefined,
    env,
    cwd: repoRoot,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as unknown };
}
