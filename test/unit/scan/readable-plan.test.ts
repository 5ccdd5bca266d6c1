import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import { printableBytes } from '../../../src/util/printable-bytes.js';

const NOW_MICROS = 1_700_000_000_000_000;

@Entity({ table: 'page-views' })
@Salt({ buckets: 4, on: ['userId'] })
@Family('v')
class PageView {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
  @Column({ family: 'v', type: 'string' }) path?: string;
}

const schema = compileEntity(PageView);

describe('printableBytes', () => {
  it('keeps printable ASCII, escapes the backslash and every other byte as \\xNN', () => {
    expect(printableBytes(Buffer.from('u1#example.com$'))).toBe('u1#example.com$');
    expect(printableBytes(Buffer.from([0x00, 0x41, 0x5c, 0x7e, 0x7f, 0xff, 0x20]))).toBe('\\x00A\\\\~\\x7f\\xff ');
    expect(printableBytes(Buffer.from('é', 'utf8'))).toBe('\\xc3\\xa9');
    expect(printableBytes(new Uint8Array([0x0a]))).toBe('\\x0a');
  });
});

describe('a scan plan, logged or serialised', () => {
  const plan = planScan(schema, { where: { userId: 'é\\u' }, limit: 5 }, NOW_MICROS);

  it('serialises key bounds as text, not Buffer JSON', () => {
    const json = JSON.stringify(plan);
    expect(json).not.toContain('"type":"Buffer"');
    const parsed = JSON.parse(json) as typeof plan & { sources: { range: { start: { key: string } } }[] };
    const segment = plan.sources[0]!.segment;
    expect(parsed.sources).toHaveLength(1);
    expect(parsed.sources[0]!.range).toEqual({
      start: { key: `${segment}\\xc3\\xa9\\\\u#`, inclusive: true },
      end: { key: `${segment}\\xc3\\xa9\\\\u$`, inclusive: false },
    });
    expect(parsed.table).toBe('page-views');
    expect(parsed.limit).toBe(5);
  });

  it('prints key bounds as text under util.inspect (console.log), the plan and a source alike', () => {
    const printed = inspect(plan, { depth: 10 });
    expect(printed).not.toContain('<Buffer');
    expect(printed).toContain(`'${plan.sources[0]!.segment}\\\\xc3\\\\xa9\\\\\\\\u#'`);
    expect(inspect(plan.sources[0], { depth: 10 })).not.toContain('<Buffer');
    expect(JSON.stringify(plan.sources[0])).not.toContain('"type":"Buffer"');
  });

  it('keeps the bytes themselves on the plan for code that uses them', () => {
    const start = plan.sources[0]!.range.start.key;
    expect(Buffer.isBuffer(start)).toBe(true);
    expect(start.toString('utf8')).toBe(`${plan.sources[0]!.segment}é\\u#`);
    expect(Object.keys(plan)).toEqual([
      'table',
      'sources',
      'filter',
      'limit',
      'order',
      'concurrency',
      'parallelism',
      'scope',
      'keyCheck',
    ]);
    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.sources[0])).toBe(true);
  });
});
