import { describe, expect, it } from 'vitest';
import { Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { censusOf } from '../../../src/lint/census.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { encodeRowKey } from '../../../src/key/physical-key.js';

@Entity({ table: 'chat' })
@Salt({ buckets: 4, on: ['tenantId', 'channelId'] })
@Family('m')
class Message {
  @KeyPart(0, { type: 'string', maxLength: 32 }) tenantId!: string;
  @KeyPart(1, { type: 'string', maxLength: 32 }) channelId!: string;
  @KeyPart(2, { type: 'uint', width: 8 }) seq!: number;
}

@Entity({ table: 'chat-oc', keyFormat: 'ordered-code' })
@Salt({ buckets: 4, on: ['tenantId', 'channelId'] })
@Family('m')
class OrderedMessage {
  @KeyPart(0, { type: 'string', maxLength: 32 }) tenantId!: string;
  @KeyPart(1, { type: 'string', maxLength: 32 }) channelId!: string;
  @KeyPart(2, { type: 'uint' }) seq!: number;
}

/** 19,984 messages: 50 small channels of 333 rows each, and one of 3,334 that the scan meets last. */
function messages(entity: new () => object): { key: Buffer; bytes: number }[] {
  const schema = compileEntity(entity);
  const rows: { key: Buffer; bytes: number }[] = [];
  for (let c = 0; c < 50; c++)
    for (let s = 0; s < 333; s++)
      rows.push({ key: encodeRowKey(schema, { tenantId: 'acme', channelId: `ch${c}`, seq: s }).key, bytes: 10 });
  for (let s = 0; s < 3334; s++)
    rows.push({ key: encodeRowKey(schema, { tenantId: 'acme', channelId: 'general', seq: s }).key, bytes: 10 });
  return rows;
}

describe('census: the largest key prefixes', () => {
  it('keeps the largest maxPrefixes prefixes, even when the largest comes last, each count within its error bound', () => {
    const rows = messages(Message);
    const census = censusOf(Message, rows, { prefixComponents: 2, maxPrefixes: 5 });
    expect(census.prefixes).toHaveLength(5);
    const general = census.prefixes.find((p) => p.prefix === 'acme#general');
    expect(general).toBeDefined();
    const g = general as { rows: number; rowsError: number };
    expect(g.rows - g.rowsError).toBeLessThanOrEqual(3334);
    expect(g.rows).toBeGreaterThanOrEqual(3334);
    expect(g.rowsError).toBeLessThanOrEqual(rows.length / (4 * 5));
    const reported = census.prefixes.reduce((n, p) => n + p.rows, 0);
    expect(census.otherPrefixes.rows).toBe(Math.max(0, rows.length - reported));
  });

  it('is exact while the distinct prefixes fit its candidates', () => {
    const rows = messages(Message).slice(0, 333 * 10);
    const census = censusOf(Message, rows, { prefixComponents: 2, maxPrefixes: 3 });
    expect(census.prefixes.map((p) => [p.rows, p.rowsError])).toEqual([
      [333, 0],
      [333, 0],
      [333, 0],
    ]);
    expect(census.otherPrefixes).toEqual({ prefixes: 7, rows: 7 * 333, bytes: 7 * 3330 });
  });

  it('reads the salt bucket and the prefix of ordered-code keys from their bytes', () => {
    const rows = messages(OrderedMessage);
    const census = censusOf(OrderedMessage, rows, { prefixComponents: 2, maxPrefixes: 5 });
    expect(census.unsalted.rows).toBe(0);
    expect(census.buckets.reduce((n, b) => n + b.rows, 0)).toBe(rows.length);
    expect(census.prefixes.map((p) => p.prefix)).toContain('acme#general');
  });
});
