/** The longest CSV record or NDJSON line read (16 MiB): a longer one is an input error, not a memory spike. */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/**
 * One CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote, a CR or LF (quotes doubled),
 * or when it is the empty string (`""`), so an empty string stays apart from a missing value (an empty,
 * unquoted field); `undefined` is a missing value.
 */
function csvField(value: string | undefined): string {
  if (value === undefined) return '';
  return value === '' || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV record with its CRLF line end (RFC 4180). */
export function csvRecord(fields: readonly (string | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** A field read back: its text, and whether it was quoted (an empty unquoted field is a missing value). */
export interface CsvCell {
  readonly text: string;
  readonly quoted: boolean;
}

/** A CSV record read back, with the line it starts on (1-based). */
export interface CsvRow {
  readonly line: number;
  readonly cells: readonly CsvCell[];
}

/** A malformed CSV input: the line it was found on and what is wrong. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * Reads RFC 4180 CSV from text chunks, yielding each record as soon as it ends: fields may be quoted
 * (`""` is a quote inside), quoted fields may hold commas and line breaks, records end with CRLF or LF.
 * Memory holds one record at most: a record over {@link MAX_RECORD_CHARS} characters is a
 * {@link CsvSyntaxError}, as is a quote inside an unquoted field, text after a closing quote, or a
 * quoted field still open at the end. Blank lines are skipped.
 */
export async function* parseCsv(chunks: AsyncIterable<string>): AsyncGenerator<CsvRow> {
  let cells: CsvCell[] = [];
  let field = '';
  let quoted = false;
  let state: 'start' | 'plain' | 'quoted' | 'quote' = 'start';
  let line = 1;
  let recordLine = 1;
  let size = 0;
  const endField = (): void => {
    cells.push({ text: field, quoted });
    field = '';
    quoted = false;
    state = 'start';
  };
  const endRecord = (): CsvRow | undefined => {
    endField();
    const row =
      cells.length === 1 && cells[0]!.text === '' && !cells[0]!.quoted ? undefined : { line: recordLine, cells };
    cells = [];
    size = 0;
    return row;
  };
  let pendingCr = false;
  for await (const chunk of chunks) {
    for (const ch of chunk) {
      if (pendingCr) {
        pendingCr = false;
        if (ch === '\n') continue;
      }
      if (++size > MAX_RECORD_CHARS)
        throw new CsvSyntaxError(recordLine, `a record is over ${MAX_RECORD_CHARS} characters`);
      if (state === 'quoted') {
        if (ch === '"') state = 'quote';
        else {
          // A line break inside a quoted field (LF, CRLF or CR) is text, and one more line of the input.
          if (ch === '\r' || (ch === '\n' && !field.endsWith('\r'))) line++;
          field += ch;
        }
        continue;
      }
      if (state === 'quote') {
        if (ch === '"') {
          field += '"';
          state = 'quoted';
          continue;
        }
        if (ch !== ',' && ch !== '\n' && ch !== '\r')
          throw new CsvSyntaxError(line, `text after a closing quote: ${JSON.stringify(ch)}`);
      }
      if (ch === ',') endField();
      else if (ch === '\n' || ch === '\r') {
        const row = endRecord();
        if (row !== undefined) yield row;
        line++;
        recordLine = line;
        pendingCr = ch === '\r';
      } else if (ch === '"') {
        if (state !== 'start')
          throw new CsvSyntaxError(line, 'a quote inside an unquoted field (quote the whole field)');
        quoted = true;
        state = 'quoted';
      } else {
        field += ch;
        state = 'plain';
      }
    }
  }
  if (state === 'quoted') throw new CsvSyntaxError(recordLine, 'a quoted field is not closed');
  const row = endRecord();
  if (row !== undefined) yield row;
}
