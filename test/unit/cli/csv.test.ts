import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRecord, CsvSyntaxError, parseCsv } from '../../../src/cli/csv.js';
import { propertyRuns } from '../../support/property-runs.js';

async function parse(text: string, chunk = 7): Promise<{ line: number; cells: (string | undefined)[] }[]> {
  async function* chunks(): AsyncGenerator<string> {
    for (let i = 0; i < text.length; i += chunk) yield text.slice(i, i + chunk);
  }
  const rows = [];
  for await (const row of parseCsv(chunks()))
    rows.push({ line: row.line, cells: row.cells.map((c) => (c.text === '' && !c.quoted ? undefined : c.text)) });
  return rows;
}

describe('CSV (RFC 4180)', () => {
  it('quotes only what needs it, and keeps an empty string apart from a missing value', () => {
    expect(csvRecord(['a', 'b c', 'x,y', 'say "hi"', 'two\nlines', '', undefined])).toBe(
      'a,b c,"x,y","say ""hi""","two\nlines","",\r\n',
    );
  });

  it('reads back every record it writes, whatever the text and the chunking, with the line each starts on', async () => {
    const field = fc.option(fc.string({ unit: fc.constantFrom('a', 'é', ',', '"', '\n', '\r', ' ', '{', '1') }), {
      nil: undefined,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { maxLength: 6 }),
        fc.integer({ min: 1, max: 9 }),
        async (records, chunk) => {
          const text = records.map(csvRecord).join('');
          const rows = await parse(text, chunk);
          expect(rows.map((r) => r.cells)).toEqual(records);
          let line = 1;
          for (const [i, record] of records.entries()) {
            expect(rows[i]!.line).toBe(line);
            line += csvRecord(record).split(/\r\n|\r|\n/).length - 1;
          }
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });

  it('reads LF line ends and skips blank lines', async () => {
    expect(await parse('a,b\n\n1,2\n')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 3, cells: ['1', '2'] },
    ]);
  });

  it.each([
    ['a,b"c\n', /line 1: a quote inside an unquoted field/],
    ['a\n"x"y\n', /line 2: text after a closing quote/],
    ['a\n"open\n\n', /line 2: a quoted field is not closed/],
  ])('refuses malformed input %j with its line', async (text, message) => {
    await expect(parse(text)).rejects.toThrow(CsvSyntaxError);
    await expect(parse(text)).rejects.toThrow(message);
  });
});
