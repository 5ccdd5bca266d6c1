/**
 * Command line of `npm run demo`, parsed with `node:util`'s `parseArgs`:
 * an emulator by default, a real instance with `--project`/`--instance` (or
 * `GOOGLE_CLOUD_PROJECT` + `BIGTABLE_INSTANCE`).
 */
import { parseArgs } from 'node:util';

/** Usage text of the demo. */
export const DEMO_USAGE = `Usage: npm run demo -- [--project <id> --instance <id>] [--keep] [--help]

Runs the four scenarios of the seeds (sensor readings, salted events, hot users,
latest events) end to end and prints a report of checked facts.

  (no options)        use an auto-started Bigtable emulator on a loopback port
                      (or the one in BIGTABLE_EMULATOR_HOST)
  --project <id>      use a real Bigtable instance of this project (with --instance;
  --instance <id>     default: GOOGLE_CLOUD_PROJECT and BIGTABLE_INSTANCE when both are set).
                      Tables get unique names and are deleted at the end.
  --keep              keep the tables the demo created
  -h, --help          print this help

Exit code: 0 when every fact holds, 1 when a fact fails or the run errors, 2 for a usage error.`;

/** What the demo was asked to do. @example `{ kind: 'run', target: { kind: 'emulator' }, keep: false }` */
export type DemoArgs =
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string }
  | {
      readonly kind: 'run';
      readonly keep: boolean;
      readonly target:
        | { readonly kind: 'emulator' }
        | { readonly kind: 'instance'; readonly projectId: string; readonly instance: string };
    };

/**
 * Parses the demo's arguments; environment variables fill in a real instance
 * only when no emulator host is configured.
 *
 * @example
 * ```ts
 * parseDemoArgs(['--project', 'p', '--instance', 'i'], {}); // { kind: 'run', keep: false, target: { kind: 'instance', projectId: 'p', instance: 'i' } }
 * ```
 */
export function parseDemoArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): DemoArgs {
  let values: { project?: string; instance?: string; keep?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        project: { type: 'string' },
        instance: { type: 'string' },
        keep: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  if (values.help === true) return { kind: 'help' };
  const keep = values.keep === true;
  const emulatorHost = env['BIGTABLE_EMULATOR_HOST']?.trim();
  if (values.project !== undefined || values.instance !== undefined) {
    if (!values.project || !values.instance)
      return {
        kind: 'error',
        message: '--project and --instance go together: pass both to use a real Bigtable instance',
      };
    if (emulatorHost)
      return {
        kind: 'error',
        message:
          'BIGTABLE_EMULATOR_HOST is set, so the client would talk to the emulator: unset it to use a real instance',
      };
    return { kind: 'run', keep, target: { kind: 'instance', projectId: values.project, instance: values.instance } };
  }
  const projectId = env['GOOGLE_CLOUD_PROJECT']?.trim();
  const instance = env['BIGTABLE_INSTANCE']?.trim();
  if (!emulatorHost && projectId && instance)
    return { kind: 'run', keep, target: { kind: 'instance', projectId, instance } };
  return { kind: 'run', keep, target: { kind: 'emulator' } };
}
