import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { emulatorHost } from '../../support/emulator.js';
import { rowsOf } from '../../support/rows-of.js';
import { JobAuthor, JobLog, JobNote, JobPost, JobVisit } from './jobs.entities.js';
import { cli } from './run-cli.js';

const instance = `cli-jobs-${randomUUID().slice(0, 8)}`;
const connect = [
  '-e',
  'test/integration/cli/jobs.entities.ts',
  '--emulator-host',
  emulatorHost(),
  '--instance',
  instance,
];
const dir = mkdtempSync(join(tmpdir(), 'cli-jobs-'));
const VISITS = 240;
const mappers: BigtableMapper[] = [];

/** The environment Cloud Run Jobs gives task `index` of `count`. */
const cloudRunTask = (index: number, count: number) => ({
  CLOUD_RUN_TASK_INDEX: String(index),
  CLOUD_RUN_TASK_COUNT: String(count),
});

function open(entities: Function[], tablePrefix?: string): BigtableMapper {
  const mapper = new BigtableMapper({
    emulatorHost: emulatorHost(),
    instance,
    entities: entities as never,
    ...(tablePrefix === undefined ? {} : { tablePrefix }),
  });
  mappers.push(mapper);
  return mapper;
}

/** Every row of a table, cell by cell (family, qualifier, timestamp, value), for comparing two tables. */
async function tableRows(table: string): Promise<unknown[]> {
  const raw = open([]);
  const rows = [];
  for await (const row of rowsOf(raw.driver.readRows({ table }))) {
    const cells = Object.entries(row.cells).flatMap(([family, columns]) =>
      Object.entries(columns).flatMap(([qualifier, versions]) =>
        versions.map((c) => [family, qualifier, String(c.timestampMicros), c.value.toString('base64')]),
      ),
    );
    rows.push({ key: row.key.toString(), cells });
  }
  return rows;
}

/** A task's report without what differs between runs of the same work. */
function withoutTiming(report: unknown): unknown {
  const { durationMs: _, ...rest } = report as { durationMs: number };
  return rest;
}

const visits = Array.from({ length: VISITS }, (_, i) =>
  Object.assign(new JobVisit(), {
    site: `site-${i % 5}`,
    seq: i,
    ...(i % 7 === 0 ? {} : { page: i % 11 === 0 ? '' : `/p/${i}?q="a,b"` }),
    ms: i * 3,
    tags: i % 2 === 0 ? [] : ['x', `t${i}`],
    digest: Buffer.from([i % 256, 0, 10]),
    at: new Date(Date.UTC(2026, 0, 1) + i * 1000),
  }),
);

beforeAll(async () => {
  const mapper = open([JobVisit]);
  await mapper.sync();
  await mapper.getRepository(JobVisit).saveMany(visits);
});

afterAll(async () => {
  await Promise.all(mappers.map((m) => m.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('jobs as 4 tasks with the Cloud Run Jobs environment', () => {
  it('census: the merged reports of 4 tasks equal the census of one process', async () => {
    const single = await cli([...connect, '--json', 'census', 'JobVisit']);
    expect(single.code).toBe(0);
    const files: string[] = [];
    const tasks = [];
    for (let i = 0; i < 4; i++) {
      const task = await cli([...connect, '--json', 'census', 'JobVisit'], cloudRunTask(i, 4));
      expect(task.code).toBe(0);
      const report = task.json() as { rows: number; shard: unknown; buckets: { rows: number }[] };
      expect(report.shard).toEqual({ index: i, count: 4 });
      // 4 salt buckets over 4 tasks: each task reads exactly one bucket.
      expect(report.buckets.filter((b) => b.rows > 0)).toHaveLength(1);
      tasks.push(report);
      files.push(join(dir, `census-${i}.json`));
      writeFileSync(files[i]!, task.stdout);
    }
    expect(tasks.reduce((n, t) => n + t.rows, 0)).toBe(VISITS);

    const merged = await cli(['--json', 'census', 'merge', ...files]);
    expect(merged.code).toBe(0);
    expect(withoutTiming(merged.json())).toEqual(withoutTiming(single.json()));
    expect((merged.json() as { rows: number }).rows).toBe(VISITS);

    const partial = await cli(['census', 'merge', files[0]!, files[1]!, files[3]!]);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(/missing task 2 of 4.*re-run only those tasks \(--shard 2\/4/);
    // A re-run of the failed task redoes only its shard, and completes the merge.
    const rerun = await cli([...connect, '--json', 'census', 'JobVisit', '--shard', '2/4']);
    writeFileSync(join(dir, 'census-2-again.json'), rerun.stdout);
    const completed = await cli([
      '--json',
      'census',
      'merge',
      files[0]!,
      files[1]!,
      files[3]!,
      join(dir, 'census-2-again.json'),
    ]);
    expect(withoutTiming(completed.json())).toEqual(withoutTiming(single.json()));
  });

  it('export: the 4 tasks write every entity once, the same lines as one process', async () => {
    const whole = join(dir, 'visits.ndjson');
    const single = await cli([...connect, '--json', 'export', 'JobVisit', '--out', whole]);
    expect(single.code).toBe(0);
    expect(single.json()).toMatchObject({ exported: VISITS, shard: { index: 0, count: 1 } });
    const lines = readFileSync(whole, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(VISITS);

    const parts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const out = join(dir, `visits-${i}.ndjson`);
      const task = await cli([...connect, '--json', 'export', 'JobVisit', '--out', out], cloudRunTask(i, 4));
      expect(task.code).toBe(0);
      parts.push(...readFileSync(out, 'utf8').trimEnd().split('\n'));
    }
    expect(parts.sort()).toEqual([...lines].sort());
    expect(new Set(parts).size).toBe(VISITS);
  });

  it('resalt: 4 tasks move one old bucket each, with the same totals and the same table as one process', async () => {
    @Entity({ table: 'cli-jobs-notes' })
    @Salt({ buckets: 4 })
    @Family('d')
    class OldNote {
      @KeyPart(0, { type: 'string' }) author!: string;
      @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
      @Column({ family: 'd', type: 'string' }) text?: string;
    }
    const notes = Array.from({ length: 160 }, (_, i) =>
      Object.assign(new OldNote(), { author: `a${i % 9}`, seq: i, text: `note ${i}` }),
    );
    for (const prefix of ['one_', 'four_']) {
      const old = open([OldNote], prefix);
      await old.sync();
      await old.getRepository(OldNote).saveMany(notes);
      await open([JobNote], prefix).sync();
    }
    type Result = {
      remaining: number;
      shard: unknown;
      buckets: { segment: string; seen: number; copied: number; present: number; deleted: number }[];
    };
    const single = await cli([...connect, '--table-prefix', 'one_', '--json', 'resalt', 'JobNote']);
    expect(single.code).toBe(0);
    const whole = single.json() as Result;
    expect(whole.remaining).toBe(0);

    const tasks: Result[] = [];
    for (let i = 0; i < 4; i++) {
      const task = await cli(
        [...connect, '--table-prefix', 'four_', '--json', 'resalt', 'JobNote'],
        cloudRunTask(i, 4),
      );
      expect(task.code).toBe(0);
      const result = task.json() as Result;
      expect(result.remaining).toBe(0);
      expect(result.buckets.map((b) => b.segment)).toEqual([`0${i}#`]);
      tasks.push(result);
    }
    expect(tasks.flatMap((t) => t.buckets)).toEqual(whole.buckets);

    const values = (rows: unknown[]) =>
      (rows as { key: string; cells: string[][] }[]).map((r) => ({
        key: r.key,
        values: r.cells.map((c) => [c[0], c[1], c[3]]),
      }));
    expect(values(await tableRows('four_cli-jobs-notes'))).toEqual(values(await tableRows('one_cli-jobs-notes')));
  });
});

describe('tasks reading a shard plan (shards, then --plan)', () => {
  it('an unsalted table: census and export over the 4 shards of the plan equal one process', async () => {
    const mapper = open([JobLog]);
    await mapper.sync();
    await mapper.getRepository(JobLog).saveMany(
      Array.from({ length: 200 }, (_, i) =>
        Object.assign(new JobLog(), {
          day: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}`,
          seq: i,
          line: `l${i}`,
        }),
      ),
    );
    const planned = await cli([...connect, 'shards', 'JobLog', '--shards', '4']);
    expect(planned.code).toBe(0);
    const plan = join(dir, 'log-plan.json');
    writeFileSync(plan, planned.stdout);
    expect(planned.json()).toHaveLength(4);

    const single = await cli([...connect, '--json', 'census', 'JobLog']);
    const files: string[] = [];
    const lines: string[] = [];
    for (let i = 0; i < 4; i++) {
      const census = await cli([...connect, '--json', 'census', 'JobLog', '--plan', plan], cloudRunTask(i, 4));
      expect(census.code).toBe(0);
      files.push(join(dir, `log-census-${i}.json`));
      writeFileSync(files[i]!, census.stdout);
      const out = join(dir, `log-${i}.ndjson`);
      const exported = await cli(
        [...connect, '--json', 'export', 'JobLog', '--plan', plan, '--out', out],
        cloudRunTask(i, 4),
      );
      expect(exported.code).toBe(0);
      lines.push(
        ...readFileSync(out, 'utf8')
          .split('\n')
          .filter((l) => l !== ''),
      );
    }
    const merged = await cli(['--json', 'census', 'merge', ...files]);
    expect(withoutTiming(merged.json())).toEqual(withoutTiming(single.json()));
    expect(lines).toHaveLength(200);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).size).toBe(200);
  });

  it('refuses a plan of another task count, or of another entity', async () => {
    const plan = join(dir, 'visit-plan.json');
    writeFileSync(plan, (await cli([...connect, 'shards', 'JobVisit', '--shards', '2'])).stdout);
    const count = await cli([...connect, 'census', 'JobVisit', '--plan', plan], cloudRunTask(0, 4));
    expect(count.code).toBe(2);
    expect(count.stderr).toMatch(/is not a plan of 4 shards/);
    const other = await cli([...connect, 'census', 'JobLog', '--plan', plan, '--shard', '1/2']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/JobVisit/);
  });
});

describe('export and import', () => {
  it.each(['ndjson', 'csv'] as const)(
    'round trip as %s: export, import into a new table, identical rows, twice',
    async (format) => {
      const file = join(dir, `round-trip.${format}`);
      const exported = await cli([...connect, '--json', 'export', 'JobVisit', '--format', format, '--out', file]);
      expect(exported.code).toBe(0);
      const prefix = `${format}_`;
      await open([JobVisit], prefix).sync();
      for (let run = 0; run < 2; run++) {
        const imported = await cli([...connect, '--table-prefix', prefix, '--json', 'import', 'JobVisit', file]);
        expect(imported.stderr).toBe('');
        expect(imported.json()).toMatchObject({
          read: VISITS,
          written: VISITS,
          rejected: 0,
          failed: 0,
          rejections: [],
        });
        // The records carry their @CellTimestamp: a second import writes the same cells, not new versions.
        expect(await tableRows(`${prefix}cli-jobs-visits`)).toEqual(await tableRows('cli-jobs-visits'));
      }
    },
  );

  it('export to stdout: the records on stdout, the report on stderr; a --where range', async () => {
    const run = await cli([
      ...connect,
      '--json',
      'export',
      'JobVisit',
      '--where',
      '{"site":"site-1"}',
      '--format',
      'csv',
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('site,seq,page,ms,tags,digest,at');
    expect(lines).toHaveLength(1 + VISITS / 5);
    expect(JSON.parse(run.stderr)).toMatchObject({ exported: VISITS / 5, format: 'csv', out: null });
  });

  it('import rejects each invalid record with its line and field, and writes only the valid ones', async () => {
    const prefix = 'rejects_';
    await open([JobVisit], prefix).sync();
    const file = join(dir, 'mixed.ndjson');
    writeFileSync(
      file,
      [
        '{"site":"ok","seq":1,"ms":5,"at":"2026-01-01T00:00:00.000Z"}',
        '{not json',
        '{"site":"bad","seq":"two"}',
        '',
        '{"site":"bad","seq":3,"colour":"red"}',
        '{"site":"bad","seq":4,"ms":1.5}',
        '{"site":"ok","seq":5,"page":"/x"}',
      ].join('\n'),
    );
    const run = await cli([...connect, '--table-prefix', prefix, '--json', 'import', 'JobVisit', file]);
    expect(run.code).toBe(1);
    const report = run.json() as {
      read: number;
      written: number;
      rejections: { line: number; field: string | null }[];
    };
    expect(report).toMatchObject({ read: 6, written: 2, rejected: 4, failed: 0 });
    expect(report.rejections.map((r) => r.line)).toEqual([2, 3, 5, 6]);
    expect(report.rejections[0]!.field).toBeNull();
    expect(report.rejections.slice(1).map((r) => r.field)).toEqual(['seq', 'colour', 'ms']);
    const keys = ((await tableRows(`${prefix}cli-jobs-visits`)) as { key: string }[]).map((r) =>
      r.key.split('#').slice(1).join('#'),
    );
    expect(keys.sort()).toEqual(['ok#000001', 'ok#000005']);
  });

  it("reads a CSV record per line of its own, and refuses a header that is not the entity's", async () => {
    const prefix = 'csvrejects_';
    await open([JobVisit], prefix).sync();
    const file = join(dir, 'mixed.csv');
    writeFileSync(file, 'site,seq,page,ms\r\nok,1,"two\nlines",7\r\nbad,2\r\nbad,3,,x1\r\nok,4,"",\r\n');
    const run = await cli([...connect, '--table-prefix', prefix, '--json', 'import', 'JobVisit', file]);
    const report = run.json() as { written: number; rejections: { line: number; field: string | null }[] };
    expect(report.written).toBe(2);
    expect(report.rejections.map((r) => [r.line, r.field])).toEqual([
      [4, null],
      [5, 'ms'],
    ]);
    for (const [header, message] of [
      ['site,seq,colour', /names "colour", not properties of JobVisit/],
      ['site,seq,seq', /names "seq" twice/],
    ] as const) {
      writeFileSync(file, `${header}\r\nok,1,x\r\n`);
      const refused = await cli([...connect, '--table-prefix', prefix, 'import', 'JobVisit', file]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(message);
    }
  });

  it('refuses a task count for an entity being re-salted, and a task index out of range', async () => {
    const resalting = await cli([...connect, 'export', 'JobNote', '--shard', '0/2']);
    expect(resalting.code).toBe(2);
    expect(resalting.stderr).toMatch(/JobNote is being re-salted.*run this command as one task/);
    const outOfRange = await cli([...connect, 'census', 'JobVisit'], cloudRunTask(4, 4));
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toMatch(/CLOUD_RUN_TASK_INDEX 4 of CLOUD_RUN_TASK_COUNT 4/);
  });
});

describe('repropagate', () => {
  it('rewrites stale copies over a scan of the source, as 2 tasks, and then finds nothing to do', async () => {
    const both = open([JobAuthor, JobPost]);
    await both.sync();
    const authors = Array.from({ length: 8 }, (_, i) =>
      Object.assign(new JobAuthor(), { id: `au${i}`, name: `Old ${i}` }),
    );
    await both.getRepository(JobAuthor).saveMany(authors);
    await both
      .getRepository(JobPost)
      .saveMany(
        Array.from({ length: 40 }, (_, i) =>
          Object.assign(new JobPost(), { authorId: `au${i % 8}`, seq: i, title: `t${i}` }),
        ),
      );
    // Renamed by a writer that does not know the posts: their copies are now stale.
    await open([JobAuthor])
      .getRepository(JobAuthor)
      .saveMany(authors.map((a, i) => Object.assign(a, { name: `New ${i}` })));

    let updated = 0;
    let sources = 0;
    for (const shard of ['0/2', '1/2']) {
      const run = await cli([...connect, '--json', 'repropagate', 'JobAuthor', '--shard', shard]);
      expect(run.code).toBe(0);
      const report = run.json() as { sources: number; updated: number };
      sources += report.sources;
      updated += report.updated;
    }
    expect({ sources, updated }).toEqual({ sources: 8, updated: 40 });
    const posts: JobPost[] = [];
    for await (const post of both.getRepository(JobPost).iterate()) posts.push(post);
    expect(posts).toHaveLength(40);
    expect(posts.every((p) => p.authorName === `New ${p.authorId.slice(2)}`)).toBe(true);
    const again = await cli([...connect, '--json', 'repropagate', 'JobAuthor']);
    expect(again.json()).toMatchObject({ sources: 8, updated: 0 });
  });
});
