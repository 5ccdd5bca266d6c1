import fc from 'fast-check';
import { printableBytes } from '../../../src/util/printable-bytes.js';
import { describe, expect, it } from 'vitest';
import { formatTable } from '../../../src/cli/cli-output.js';
import { jsonSafe, keyValuesFromJson, parseKeyText, whereFromJson } from '../../../src/cli/cli-values.js';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { KeyPartRange } from '../../../src/scan/scan-query.js';

@Entity({ table: 'cli_values' })
@Family('f', { gc: { maxVersions: 1 } })
class Sample {
  @KeyPart(0, { type: 'string' }) name!: string;
  @KeyPart(1, { type: 'bigint' }) big!: bigint;
  @KeyPart(2, { type: 'timestamp' }) at!: Date;
  @Column({ family: 'f', type: 'string' }) note?: string;
}
const schema = compileEntity(Sample);

@Entity({ table: 'cli_values_binary' })
@Family('f', { gc: { maxVersions: 1 } })
class BinarySample {
  @KeyPart(0, { type: 'bytes' }) digest!: Buffer;
  @KeyPart(1, { type: 'boolean' }) active!: boolean;
  @KeyPart(2, { type: 'float' }) score!: number;
}
const binary = compileEntity(BinarySample);

describe('command-line values', () => {
  it('prints any key bytes as text that parses back to the same bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = printableBytes(bytes);
        expect(text).toMatch(/^[\x20-\x7e]*$/);
        expect([...parseKeyText(text, 'text')]).toEqual([...bytes]);
      }),
    );
    expect(printableBytes(Buffer.from('a#\u0000\\'))).toBe('a#\\x00\\\\');
    expect(parseKeyText('é', 'text')).toEqual(Buffer.from('é'));
  });

  it('turns JSON into key values of each part type, and refuses unknown parts and bad values', () => {
    expect(keyValuesFromJson(schema, { name: 'n', big: '9007199254740993', at: 0 }, 'json')).toEqual({
      name: 'n',
      big: 9007199254740993n,
      at: new Date(0),
    });
    expect(() => keyValuesFromJson(schema, { note: 'x' }, 'json')).toThrow(/has no key part "note".*name, big, at/);
    expect(() => keyValuesFromJson(schema, JSON.parse('{"__proto__":{"name":"x"}}'), 'json')).toThrow(
      /no key part "__proto__"/,
    );
    expect(() => keyValuesFromJson(schema, { at: 'yesterday' }, 'json')).toThrow(/not a timestamp/);
    expect(() => keyValuesFromJson(schema, { big: 1.5 }, 'json')).toThrow(/not an integer/);
    expect(() => keyValuesFromJson(schema, [], 'json')).toThrow(/must be a JSON object/);
  });

  it('reads bytes from hex or marked base64, and booleans from true/false', () => {
    expect(keyValuesFromJson(binary, { digest: '00fF', active: 'true', score: -1.5 }, 'json')).toEqual({
      digest: Buffer.from([0x00, 0xff]),
      active: true,
      score: -1.5,
    });
    expect(keyValuesFromJson(binary, { digest: 'base64:AP8=', active: false }, 'json')).toEqual({
      digest: Buffer.from([0x00, 0xff]),
      active: false,
    });
    for (const digest of ['', 'abc', 'zz', 'AP8=', 'base64:', 'base64:AP8', 'base64:@@@@', 12, [0]])
      expect(() => keyValuesFromJson(binary, { digest }, 'json')).toThrow(/json\.digest is not bytes/);
    for (const active of ['yes', 1, 'True', null])
      expect(() => keyValuesFromJson(binary, { active }, 'json')).toThrow(/json\.active is not a boolean/);
    expect(whereFromJson(binary, { digest: { gte: '00', lt: 'base64:AQ==' } }).digest).toBeInstanceOf(KeyPartRange);
  });

  it('turns bound objects into ranges', () => {
    const where = whereFromJson(schema, { name: 'n', big: { gte: '1', lt: 5 } });
    expect(where.name).toBe('n');
    expect(where.big).toBeInstanceOf(KeyPartRange);
    expect(() => whereFromJson(schema, { big: { from: 1 } })).toThrow(/use gt, gte, lt or lte/);
  });

  it('makes values JSON-safe and pads tables', () => {
    expect(jsonSafe({ a: 1n, d: new Date(0), b: Buffer.from([0, 65]), l: [2n] })).toEqual({
      a: '1',
      d: '1970-01-01T00:00:00.000Z',
      b: '\\x00A',
      l: ['2'],
    });
    expect(
      formatTable(
        ['name', 'n'],
        [
          ['a', 1],
          ['bbb', 22],
        ],
      ),
    ).toBe('name   n\n----  --\na      1\nbbb   22');
  });
});
