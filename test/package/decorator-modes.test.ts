import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packLibrary } from '../../scripts/pack.js';
import { emulatorHost } from '../support/emulator.js';
import { createConsumerWorkspace } from './consumer-workspace.js';

/**
 * One app (test/package/consumers/decorator-modes) compiled with
 * `tsc` in each decorator mode against the packed library, then run on the
 * emulator: it saves and reads back entities using every decorator and prints
 * the compiled schema. Every mode must print the same.
 */

const run = promisify(execFile);
const givenTarball = process.env['BIGTABLE_MAPPER_TARBALL'];
const fixture = join(import.meta.dirname, 'consumers', 'decorator-modes');
/** TypeScript 7 is installed once into this folder and reused by later runs. */
const typescript7Cache = join(tmpdir(), 'bigtable-mapper-typescript-7');

interface Mode {
  name: string;
  id: string;
  typescript: '5.9' | '7';
  compilerOptions: Record<string, boolean>;
  /** What the emitted JavaScript calls, proving the mode. */
  emits: RegExp;
}

const modes: Mode[] = [
  {
    name: 'TypeScript 5.9, legacy decorators with emitDecoratorMetadata',
    id: 'legacy-metadata',
    typescript: '5.9',
    compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true },
    emits: /__metadata\("design:type", String\)/,
  },
  {
    name: 'TypeScript 5.9, legacy decorators without emitDecoratorMetadata',
    id: 'legacy',
    typescript: '5.9',
    compilerOptions: { experimentalDecorators: true },
    emits: /__decorate\(\[/,
  },
  {
    name: 'TypeScript 5.9, standard decorators',
    id: 'standard',
    typescript: '5.9',
    compilerOptions: {},
    emits: /__esDecorate\(/,
  },
  {
    name: 'TypeScript 7, standard decorators',
    id: 'standard-ts7',
    typescript: '7',
    compilerOptions: {},
    emits: /__esDecorate\(/,
  },
];

const expected = {
  schema: {
    name: 'Reading',
    key: ["0:'reading'", '1:tenant', '2:sensorId', '3:at'],
    salt: 4,
    families: ['m {"kind":"maxVersions","count":3}', 'copy null'],
    columns: [
      'createdBy m:by string',
      'temperature m:temperature float',
      'count m:count bigint',
      'location copy:location string',
    ],
    cellTimestamp: 'readAt',
    denormalized: ['location <- Sensor.location'],
  },
  read: {
    instance: true,
    createdBy: 'ops',
    temperature: 21.5,
    count: '7',
    location: 'roof',
    readAt: '2024-05-01T12:00:00.000Z',
  },
};

let work: string;
let workspace: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-decorator-modes-'));
  const tarball = givenTarball ?? packLibrary(join(work, 'pack')).tarball;
  workspace = createConsumerWorkspace(join(work, 'consumers'), tarball);
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** The `tsc` of TypeScript 7, installed once into a cached folder; or why it cannot be. */
async function typescript7(): Promise<{ tsc: string } | { skip: string }> {
  const tsc = join(typescript7Cache, 'node_modules', 'typescript', 'bin', 'tsc');
  if (isTypeScript7(typescript7Cache)) return { tsc };
  const staging = `${typescript7Cache}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'package.json'), '{ "private": true }\n');
  try {
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', 'typescript@7'], {
      cwd: staging,
      timeout: 180_000,
    });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    return { skip: `npm could not install typescript@7: ${(err as Error).message.split('\n')[0] ?? ''}` };
  }
  if (!isTypeScript7(staging)) {
    rmSync(staging, { recursive: true, force: true });
    return { skip: 'npm installed typescript@7, but its package.json does not say version 7' };
  }
  if (!isTypeScript7(typescript7Cache)) {
    rmSync(typescript7Cache, { recursive: true, force: true });
    renameSync(staging, typescript7Cache);
  } else {
    rmSync(staging, { recursive: true, force: true });
  }
  return { tsc };
}

function isTypeScript7(folder: string): boolean {
  const manifest = join(folder, 'node_modules', 'typescript', 'package.json');
  if (!existsSync(manifest)) return false;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version.startsWith('7.');
}

/** Copies the app into its own folder with the mode's tsconfig.json, compiles it with `tsc`, runs it. */
async function compileAndRun(mode: Mode, tsc: string): Promise<{ emitted: string; output: unknown }> {
  const dir = join(workspace, mode.id);
  cpSync(fixture, dir, { recursive: true });
  const compilerOptions = {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    types: ['node'],
    outDir: 'dist',
    // The app's use of the decorators is still type-checked against the library's declarations; checking the
    // declaration files themselves is the packed-package test's job, and would double this test's time.
    skipLibCheck: true,
    ...mode.compilerOptions,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['main.ts'] }, null, 2));
  await run(process.execPath, [tsc, '-p', dir], { timeout: 120_000 }).catch(
    (err: { stdout?: string; message: string }) => {
      throw new Error(`tsc failed for ${mode.name}:\n${err.stdout ?? err.message}`);
    },
  );
  const main = join(dir, 'dist', 'main.js');
  const { stdout } = await run(process.execPath, [main], {
    cwd: dir,
    env: { ...process.env, BIGTABLE_EMULATOR_HOST: emulatorHost(), METADATA_SERVER_DETECTION: 'none' },
    timeout: 60_000,
  }).catch((err: { stderr?: string; message: string }) => {
    throw new Error(`the app compiled with ${mode.name} failed:\n${err.stderr ?? err.message}`);
  });
  return { emitted: readFileSync(main, 'utf8'), output: JSON.parse(stdout.trim().split('\n').at(-1) ?? '') };
}

describe('an app compiled in each decorator mode saves, reads and compiles the same schema', () => {
  for (const mode of modes) {
    it(mode.name, { timeout: 300_000 }, async (context) => {
      let tsc = join(workspace, 'node_modules', 'typescript', 'bin', 'tsc');
      if (mode.typescript === '7') {
        const installed = await typescript7();
        if ('skip' in installed) {
          console.warn(`Skipping "${mode.name}": ${installed.skip}`);
          return context.skip(installed.skip);
        }
        tsc = installed.tsc;
      }
      const { emitted, output } = await compileAndRun(mode, tsc);
      expect(emitted).toMatch(mode.emits);
      expect(output).toEqual(expected);
    });
  }
});
