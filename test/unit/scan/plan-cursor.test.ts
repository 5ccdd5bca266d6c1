import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import type { KeyRange } from '../../../src/model/driver.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { encodeCursor } from '../../../src/scan/cursor.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import type { ScanPlan, ScanSource } from '../../../src/scan/scan-plan.js';
import type { ScanQuery } from '../../../src/scan/scan-query.js';

const NOW_MICROS = 1_700_000_000_000_000;

@Entity({ table: 'page-views' })
@Salt({ buckets: 4, on: ['userId', 'site'], hash: (input) => input.length })
@Family('v')
class PageView {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'string' }) site!: string;
  @KeyPart(2, { type: 'uint', width: 3 }) n!: number;
  @Column({ family: 'v', type: 'string' }) path?: string;
  @Column({ family: 'v', type: 'int' }) ms?: number;
}

@Entity({ table: 'readings' })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 3 }) n!: number;
  @Column({ family: 'm', type: 'float' }) value?: number;
}

const b = (text: string): Buffer => Buffer.from(text, 'utf8');
const range = (start: string, startInclusive: boolean, end: string | undefined, endInclusive = false): KeyRange => ({
  start: { key: b(start), inclusive: startInclusive },
  end: end === undefined ? undefined : { key: b(end), inclusive: endInclusive },
});
const source = (id: number, segment: string, r: KeyRange, layout: 'salted' | 'unsalted' = 'salted'): ScanSource => ({
  id,
  segment,
  prefix: b(segment),
  layout,
  range: r,
});
const plan = <T>(entity: new () => T, query: ScanQuery<T> = {}): ScanPlan =>
  planScan(compileEntity(entity), query, NOW_MICROS);

function caught(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

describe('planScan with an ordered cursor', () => {
  const query: ScanQuery<PageView> = { where: { userId: 'u1' } };
  const base = plan(PageView, query);
  const ordered = (lastKey: string, scope = base.scope): string =>
    encodeCursor({ kind: 'ordered', lastKey: b(lastKey), scope });

  it('starts every bucket just after segment + lastKey, exclusive; ends unchanged', () => {
    const resumed = plan(PageView, { ...query, cursor: ordered('u1#web#007') });
    expect(resumed.sources).toEqual([
      source(0, '00#', range('00#u1#web#007', false, '00#u1$')),
      source(1, '01#', range('01#u1#web#007', false, '01#u1$')),
      source(2, '02#', range('02#u1#web#007', false, '02#u1$')),
      source(3, '03#', range('03#u1#web#007', false, '03#u1$')),
    ]);
    expect(resumed.scope).toBe(base.scope);
    expect({ ...resumed, sources: base.sources }).toEqual(base);
  });

  it('leaves a source unchanged when lastKey sorts before its start', () => {
    expect(plan(PageView, { ...query, cursor: ordered('a') }).sources).toEqual(base.sources);
  });

  it('drops sources whose end is at or before lastKey', () => {
    expect(plan(PageView, { ...query, cursor: ordered('u1$') }).sources).toEqual([]);
    expect(plan(PageView, { ...query, cursor: ordered('zzz') }).sources).toEqual([]);
  });

  it('drops a single-key source once its key was delivered, keeps it before', () => {
    const q: ScanQuery<Reading> = { where: { sensorId: 's', n: 5 } };
    const p = plan(Reading, q);
    expect(p.sources).toEqual([source(0, '', range('s#005', true, 's#005', true), 'unsalted')]);
    expect(
      plan(Reading, { ...q, cursor: encodeCursor({ kind: 'ordered', lastKey: b('s#005'), scope: p.scope }) }).sources,
    ).toEqual([]);
    expect(
      plan(Reading, { ...q, cursor: encodeCursor({ kind: 'ordered', lastKey: b('s#004'), scope: p.scope }) }).sources,
    ).toEqual(p.sources);
  });

  it('resumes an open-ended unsalted scan', () => {
    const p = plan(Reading);
    expect(
      plan(Reading, { cursor: encodeCursor({ kind: 'ordered', lastKey: b('s#009'), scope: p.scope }) }).sources,
    ).toEqual([source(0, '', range('s#009', false, undefined), 'unsalted')]);
  });
});

describe('planScan with an unordered cursor', () => {
  const query: ScanQuery<PageView> = { where: { userId: 'u1' }, order: 'none' };
  const base = plan(PageView, query);

  it('drops finished sources, moves started ones past their last key and keeps ids', () => {
    const cursor = encodeCursor({
      kind: 'unordered',
      scope: base.scope,
      sources: [
        { lastKey: b('00#u1#web#001'), finished: true },
        { lastKey: b('01#u1#web#003'), finished: false },
        { lastKey: undefined, finished: false },
        { lastKey: undefined, finished: true },
      ],
    });
    expect(plan(PageView, { ...query, cursor }).sources).toEqual([
      source(1, '01#', range('01#u1#web#003', false, '01#u1$')),
      source(2, '02#', range('02#u1#', true, '02#u1$')),
    ]);
  });

  it('drops a source whose last key is at its end', () => {
    const cursor = encodeCursor({
      kind: 'unordered',
      scope: base.scope,
      sources: [
        { lastKey: b('00#u1$'), finished: false },
        { lastKey: undefined, finished: true },
        { lastKey: undefined, finished: true },
        { lastKey: undefined, finished: true },
      ],
    });
    expect(plan(PageView, { ...query, cursor }).sources).toEqual([]);
  });

  it('rejects a cursor made for another number of ranges', () => {
    const cursor = encodeCursor({
      kind: 'unordered',
      scope: base.scope,
      sources: [{ lastKey: undefined, finished: false }],
    });
    const err = caught(() => plan(PageView, { ...query, cursor }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('made for 1 key ranges but the query has 4');
  });
});

describe('planScan rejects foreign cursors', () => {
  const query: ScanQuery<PageView> = { where: { userId: 'u1' } };
  const base = plan(PageView, query);
  const cursor = encodeCursor({ kind: 'ordered', lastKey: b('u1#web#001'), scope: base.scope });

  it.each<[string, ScanQuery<PageView>]>([
    ['another where', { where: { userId: 'u2' } }],
    ['another select', { where: { userId: 'u1' }, select: ['path'] }],
    ['no columns selected', { where: { userId: 'u1' }, select: [] }],
    ['the other order', { where: { userId: 'u1' }, order: 'none' }],
  ])('from %s', (_name, other) => {
    const err = caught(() => plan(PageView, { ...other, cursor }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('PageView: this cursor belongs to another query');
  });

  it('without a scope, or of another entity', () => {
    expect(
      caught(() => plan(PageView, { ...query, cursor: encodeCursor({ kind: 'ordered', lastKey: b('x') }) })),
    ).toBeInstanceOf(ValidationError);
    const readingCursor = encodeCursor({ kind: 'ordered', lastKey: b('x'), scope: plan(Reading).scope });
    expect(caught(() => plan(PageView, { ...query, cursor: readingCursor })).message).toContain(
      'belongs to another query',
    );
  });

  it('that are garbage or edited', () => {
    expect(caught(() => plan(PageView, { ...query, cursor: 'not-a-cursor' })).message).toContain('Invalid scan cursor');
    const edited = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}A`;
    expect(caught(() => plan(PageView, { ...query, cursor: edited }))).toBeInstanceOf(ValidationError);
  });

  it('but accepts its own cursor with another limit or concurrency', () => {
    expect(plan(PageView, { ...query, limit: 3, concurrency: 1, cursor }).sources).toHaveLength(4);
  });
});
