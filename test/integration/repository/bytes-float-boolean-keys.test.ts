import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Column,
  Entity,
  Family,
  KeyPart,
  range,
  type BigtableMapper,
  type Repository,
  type ScanQuery,
} from '../../../src/index.js';
import { closeMapper, openMapper, plain } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';

const TABLES = { text: uniqueTableId('bfb-text'), ordered: uniqueTableId('bfb-ordered') };

@Entity({ table: TABLES.text })
@Family('m')
class TextScore {
  @KeyPart(0, { type: 'bytes', maxLength: 4 }) digest!: Buffer;
  @KeyPart(1, { type: 'float', descending: true }) score!: number;
  @KeyPart(2, { type: 'boolean' }) active!: boolean;
  @Column({ family: 'm', type: 'string' }) note!: string;
}

@Entity({ table: TABLES.ordered, keyFormat: 'ordered-code' })
@Family('m')
class OrderedScore {
  @KeyPart(0, { type: 'bytes', descending: true }) digest!: Buffer;
  @KeyPart(1, { type: 'float' }) score!: number;
  @KeyPart(2, { type: 'boolean', descending: true }) active!: boolean;
  @Column({ family: 'm', type: 'string' }) note!: string;
}

/** Digests that share prefixes and hold 00 and ff; scores around 0, tiny and huge. */
const DIGESTS = ['00', '0000', '00ff', '01', 'ff', 'ff00'].map((h) => Buffer.from(h, 'hex'));
const SCORES = [-1e300, -2.5, -Number.MIN_VALUE, 0, 0.1, 1, 1e300];

type Score = { digest: Buffer; score: number; active: boolean; note: string };
const rows = <T extends object>(make: () => T): T[] =>
  DIGESTS.flatMap((digest) =>
    SCORES.flatMap((score) =>
      [false, true].map((active) =>
        Object.assign(make(), { digest, score, active, note: `${digest.toString('hex')}/${score}/${active}` }),
      ),
    ),
  );

let mapper: BigtableMapper;
let text: Repository<TextScore>;
let ordered: Repository<OrderedScore>;

async function all<T extends object>(repo: Repository<T>, query: ScanQuery<T> = {}): Promise<Score[]> {
  const out: Score[] = [];
  for await (const item of repo.iterate(query)) out.push(plain(item) as Score);
  return out;
}

const notes = (list: readonly Score[]): string[] => list.map((r) => r.note);
const byDigest = (a: Score, b: Score): number => Buffer.compare(a.digest, b.digest);

beforeAll(async () => {
  mapper = openMapper([TextScore, OrderedScore]);
  await mapper.sync();
  text = mapper.getRepository(TextScore);
  ordered = mapper.getRepository(OrderedScore);
  await text.saveMany(rows(() => new TextScore()));
  await ordered.saveMany(rows(() => new OrderedScore()));
});

afterAll(() => closeMapper(mapper, Object.values(TABLES)));

describe('bytes, float and boolean key parts on the emulator', () => {
  it('text keys: every row reads back, sorted by bytes, then score descending, then false before true', async () => {
    const expected = rows(() => ({}) as Score).sort(
      (a, b) => byDigest(a, b) || b.score - a.score || Number(a.active) - Number(b.active),
    );
    const everything = await all(text);
    expect(notes(everything)).toEqual(notes(expected));
    expect(everything[0]?.digest).toEqual(Buffer.from('00', 'hex'));
    const one = await text.findOne({ digest: Buffer.from('00ff', 'hex'), score: -2.5, active: true });
    expect(one?.note).toBe('00ff/-2.5/true');
  });

  it('text keys: a prefix on bytes holds exactly its rows, and a float range is exact', async () => {
    const digest = Buffer.from('00', 'hex');
    expect(await all(text, { where: { digest } })).toHaveLength(SCORES.length * 2);
    const ranged = await all(text, { where: { digest, score: range({ gt: -2.5, lte: 1 }) } });
    expect(notes(ranged)).toEqual([1, 0.1, 0, -Number.MIN_VALUE].flatMap((s) => [`00/${s}/false`, `00/${s}/true`]));
  });

  it('ordered-code keys: sorted by bytes descending, then score, then true before false', async () => {
    const expected = rows(() => ({}) as Score).sort(
      (a, b) => byDigest(b, a) || a.score - b.score || Number(b.active) - Number(a.active),
    );
    expect(notes(await all(ordered))).toEqual(notes(expected));
    const digest = Buffer.from('ff', 'hex');
    const ranged = await all(ordered, { where: { digest, score: range({ gte: -Number.MIN_VALUE, lt: 1 }) } });
    expect(notes(ranged)).toEqual([-Number.MIN_VALUE, 0, 0.1].flatMap((s) => [`ff/${s}/true`, `ff/${s}/false`]));
    const one = await ordered.findOne({ digest: Buffer.from('0000', 'hex'), score: -0, active: false });
    expect(one?.note).toBe('0000/0/false');
  });
});
