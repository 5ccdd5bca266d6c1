import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packLibrary } from '../../scripts/pack.js';
import { createConsumerWorkspace } from './consumer-workspace.js';

/**
 * Every entry point of the packed tarball, loaded by Node itself in a child
 * process, once through `require` and once through `import`: it resolves in
 * both formats with the same exports, and `bigtable-mapper/tools` and
 * `bigtable-mapper/express` and `bigtable-mapper/json` load neither `@google-cloud/bigtable` nor gRPC,
 * and only `bigtable-mapper/nest/terminus` loads the optional `@nestjs/terminus`.
 * Both client packages are CommonJS, so whatever loads them, `require` or
 * `import`, puts them in `require.cache`, which the child reports; the root
 * and `bigtable-mapper/driver`, which do load the client, show that the
 * report sees it.
 */

// The package tier's global setup packs once and passes the tarball in; run alone, the test packs it itself.
const givenTarball = process.env['BIGTABLE_MAPPER_TARBALL'];
const run = promisify(execFile);

/** The entry points, as `package.json` `exports` declares them. */
const ENTRY_POINTS = [
  '.',
  './driver',
  './tools',
  './express',
  './json',
  './testing',
  './nest',
  './nest/terminus',
] as const;
/** Entry points that must not load the Google client or gRPC. */
const WITHOUT_CLIENT = new Set(['./tools', './express', './json', './testing']);
const CLIENT_MODULE = String.raw`[\\/]node_modules[\\/](@google-cloud[\\/]bigtable|@grpc[\\/]grpc-js|google-gax)[\\/]`;
/** The one entry point that loads the optional `@nestjs/terminus`. */
const WITH_TERMINUS = './nest/terminus';
const TERMINUS_MODULE = String.raw`[\\/]node_modules[\\/]@nestjs[\\/]terminus[\\/]`;

let work: string;
let workspace: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-entry-points-'));
  const tarball =
    givenTarball !== undefined && givenTarball !== '' ? givenTarball : packLibrary(join(work, 'pack')).tarball;
  workspace = createConsumerWorkspace(join(work, 'app'), tarball);
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

interface Loaded {
  /** The entry point's runtime exports, sorted. */
  readonly names: string[];
  /** Modules of `@google-cloud/bigtable`, `@grpc/grpc-js` or `google-gax` in `require.cache`. */
  readonly client: string[];
  /** Modules of `@nestjs/terminus` in `require.cache`. */
  readonly terminus: string[];
}

function specifier(entry: string): string {
  return entry === '.' ? 'bigtable-mapper' : `bigtable-mapper/${entry.slice(2)}`;
}

/** Loads one entry point in a fresh Node process of the app, through `require` or `import`. */
async function load(entry: string, format: 'cjs' | 'esm'): Promise<Loaded> {
  const cached = (pattern: string): string =>
    `Object.keys(require.cache).filter((p) => new RegExp(${JSON.stringify(pattern)}).test(p))`;
  const report = `({ names: Object.keys(entry).sort(), client: ${cached(CLIENT_MODULE)}, terminus: ${cached(TERMINUS_MODULE)} })`;
  const script =
    format === 'cjs'
      ? `const entry = require(${JSON.stringify(specifier(entry))}); console.log(JSON.stringify(${report}));`
      : `import * as entry from ${JSON.stringify(specifier(entry))}; import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); console.log(JSON.stringify(${report}));`;
  const args = format === 'cjs' ? ['-e', script] : ['--input-type=module', '-e', script];
  const { stdout } = await run(process.execPath, args, { cwd: workspace, timeout: 60_000 }).catch(
    (err: { stderr?: string; message: string }) => {
      throw new Error(`${format} load of ${specifier(entry)} failed:\n${err.stderr ?? err.message}`);
    },
  );
  return JSON.parse(stdout) as Loaded;
}

describe('the entry points of the packed package', () => {
  it('are exactly the ones package.json exports', () => {
    const manifest = JSON.parse(
      execFileSync('node', ['-p', 'JSON.stringify(require("bigtable-mapper/package.json").exports)'], {
        cwd: workspace,
        encoding: 'utf8',
      }),
    ) as Record<string, unknown>;
    expect(Object.keys(manifest).filter((key) => key !== './package.json')).toEqual([...ENTRY_POINTS]);
  });

  it.each(ENTRY_POINTS)(
    '%s resolves through require and import, with the same exports',
    { timeout: 120_000 },
    async (entry) => {
      const [cjs, esm] = await Promise.all([load(entry, 'cjs'), load(entry, 'esm')]);
      expect(cjs.names.length).toBeGreaterThan(0);
      expect(esm.names).toEqual(cjs.names);
      if (WITHOUT_CLIENT.has(entry)) {
        expect(cjs.client, `require('${specifier(entry)}') loaded the client`).toEqual([]);
        expect(esm.client, `import '${specifier(entry)}' loaded the client`).toEqual([]);
      } else {
        // The root and the driver do load it: the report sees the client when it is there.
        expect(cjs.client.length).toBeGreaterThan(0);
        expect(esm.client.length).toBeGreaterThan(0);
      }
      // `bigtable-mapper/nest` works in an app without Terminus; the terminus entry point shows the report sees it.
      if (entry === WITH_TERMINUS) {
        expect(cjs.terminus.length).toBeGreaterThan(0);
        expect(esm.terminus.length).toBeGreaterThan(0);
      } else {
        expect(cjs.terminus, `require('${specifier(entry)}') loaded @nestjs/terminus`).toEqual([]);
        expect(esm.terminus, `import '${specifier(entry)}' loaded @nestjs/terminus`).toEqual([]);
      }
    },
  );

  it('put each function in one home: the root keeps the application API, the subpaths the rest', async () => {
    const [root, driver, tools, express, json] = await Promise.all(
      (['.', './driver', './tools', './express', './json'] as const).map((entry) => load(entry, 'cjs')),
    );
    expect(root?.names).toEqual(expect.arrayContaining(['BigtableMapper', 'Repository', 'Entity', 'range']));
    expect(driver?.names).toEqual([
      'ForwardingDriver',
      'createGoogleCloudDriver',
      'deadlineSignal',
      'fromAsyncIterable',
      'isPreparedMutation',
    ]);
    expect(tools?.names).toEqual(expect.arrayContaining(['lintEntity', 'simulateHotspots', 'captureWorkload']));
    expect(express?.names).toEqual(['bigtableMapperErrorHandler', 'httpStatusOf', 'toHttpError']);
    expect(json?.names).toEqual(['fromJson', 'toJson', 'toJsonSchema']);
    const elsewhere = [
      ...(driver?.names ?? []),
      ...(tools?.names ?? []),
      ...(express?.names ?? []),
      ...(json?.names ?? []),
    ];
    expect(root?.names.filter((name) => elsewhere.includes(name))).toEqual([]);
    for (const internal of ['compileEntity', 'GoogleCloudDriver', 'CAPTURED_KEY_BYTES', 'EmulatorError'])
      expect(root?.names).not.toContain(internal);
  });
});
