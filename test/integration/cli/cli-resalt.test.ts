import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { layoutOfKey } from '../../../src/key/previous-layout.js';
import { encodeRowKey } from '../../../src/key/physical-key.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { emulatorHost } from '../../support/emulator.js';
import { ResaltedNote } from './resalt.entities.js';
import { cli } from './run-cli.js';
import { rowsOf } from '../../support/rows-of.js';

const instance = `cli-resalt-${randomUUID().slice(0, 8)}`;
const connect = [
  '-e',
  'test/integration/cli/resalt.entities.ts',
  '--emulator-host',
  emulatorHost(),
  '--instance',
  instance,
];
const ROWS = 300;
const dir = mkdtempSync(join(tmpdir(), 'resalt-cli-'));

/** The layout `ResaltedNote` declares as previous, to write the rows to move. */
@Entity({ table: 'cli-resalt' })
@Salt({ buckets: 2 })
@Family('d')
class OldNote {
  @KeyPart(0, { type: 'string' }) author!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

const mapper = new BigtableMapper({ emulatorHost: emulatorHost(), instance, entities: [OldNote] });

afterAll(async () => {
  await mapper.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('bigtable-mapper resalt', () => {
  it('moves every row to the declared layout, writes its checkpoint file, and reports per old bucket', async () => {
    await mapper.sync();
    const notes = Array.from({ length: ROWS }, (_, i) =>
      Object.assign(new OldNote(), { author: `a${i % 7}`, seq: i, text: `note ${i}` }),
    );
    await mapper.getRepository(OldNote).saveMany(notes);
    // As the guide says: sync the new layout (it adds the mark family) before the re-salt.
    const resalting = new BigtableMapper({ emulatorHost: emulatorHost(), instance, entities: [ResaltedNote] });
    await resalting.sync();
    await resalting.close();
    const checkpoint = join(dir, 'checkpoint.json');

    const run = await cli([
      ...connect,
      '--json',
      'resalt',
      'ResaltedNote',
      '--batch-size',
      '50',
      '--checkpoint',
      checkpoint,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = run.json() as {
      remaining: number;
      seen: number;
      buckets: { segment: string; seen: number; deleted: number }[];
    };
    expect(result.remaining).toBe(0);
    // A row whose bucket text is the same in both layouts (0 or 1 in both) is already in place.
    const schema = compileEntity(ResaltedNote);
    const old = compileEntity(OldNote);
    const inPlace = notes.filter((n) => {
      const key = { author: n.author, seq: n.seq };
      return encodeRowKey(schema, key).text === encodeRowKey(old, key).text;
    });
    expect(inPlace.length).toBeGreaterThan(0);
    expect(result.seen).toBe(ROWS - inPlace.length);
    expect(result.buckets.map((b) => b.segment)).toEqual(['00#', '01#']);
    expect(result.buckets.reduce((n, b) => n + b.deleted, 0)).toBe(result.seen);
    expect(Object.keys(JSON.parse(readFileSync(checkpoint, 'utf8')) as object).sort()).toEqual(['00#', '01#']);

    const keys: string[] = [];
    for await (const row of rowsOf(mapper.driver.readRows({ table: 'cli-resalt' }))) keys.push(row.key.toString());
    expect(keys).toHaveLength(ROWS);
    expect(keys.filter((k) => layoutOfKey(schema, k) !== 'current')).toEqual([]);

    const again = await cli([...connect, 'resalt', 'ResaltedNote', '--checkpoint', checkpoint]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('no row is left in the previous layout');
  });

  it('refuses a checkpoint file over 64 MiB, as every file the command reads', async () => {
    const huge = join(dir, 'huge-checkpoint.json');
    writeFileSync(huge, '');
    truncateSync(huge, 64 * 1024 * 1024 + 1);
    const run = await cli([...connect, 'resalt', 'ResaltedNote', '--checkpoint', huge]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot read --checkpoint .*over 67108864 bytes/);
  });
});
