import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ChunkMerger, InvalidChunkError, type ReadRowsChunk } from '../../src/driver/chunk-merger.js';
import type { RowData } from '../../src/model/driver.js';

/**
 * Google's ReadRows conformance cases (`data/readrows.json`, see the README)
 * against {@link ChunkMerger}: each case's chunks go in one response at a
 * time, then the stream ends; the rows committed must be the case's result
 * cells, and a case whose results end in an error must throw
 * {@link InvalidChunkError} after exactly the rows before it.
 *
 * Labels are not compared: `RowData` keeps none, and the mapper never sends a
 * label-applying filter, so the server never sends any.
 */

/** One `CellChunk` in the proto3 JSON form: bytes in base64, wrappers as their bare value, int64 as a string. */
interface JsonChunk {
  rowKey?: string;
  familyName?: string;
  qualifier?: string;
  timestampMicros?: string;
  labels?: string[];
  value?: string;
  valueSize?: number;
  resetRow?: boolean;
  commitRow?: boolean;
}

/** One expected cell (text as is, not base64), or the error that ends the case. */
interface JsonResult {
  rowKey?: string;
  familyName?: string;
  qualifier?: string;
  timestampMicros?: string;
  value?: string;
  label?: string;
  error?: boolean;
}

interface ReadRowsCase {
  description: string;
  chunks?: JsonChunk[];
  results?: JsonResult[];
}

const CASES = (
  JSON.parse(readFileSync(new URL('./data/readrows.json', import.meta.url), 'utf8')) as {
    readRowsTests: ReadRowsCase[];
  }
).readRowsTests;

const base64 = (text: string): Buffer => Buffer.from(text, 'base64');

/** The chunk with only the fields the case sets. */
function sparseChunk(json: JsonChunk): ReadRowsChunk {
  const out: { -readonly [K in keyof ReadRowsChunk]: ReadRowsChunk[K] } = {};
  if (json.rowKey !== undefined) out.rowKey = base64(json.rowKey);
  if (json.familyName !== undefined) out.familyName = { value: json.familyName };
  if (json.qualifier !== undefined) out.qualifier = { value: base64(json.qualifier) };
  if (json.timestampMicros !== undefined) out.timestampMicros = json.timestampMicros;
  if (json.value !== undefined) out.value = base64(json.value);
  if (json.valueSize !== undefined) out.valueSize = json.valueSize;
  if (json.resetRow !== undefined) out.resetRow = json.resetRow;
  if (json.commitRow !== undefined) out.commitRow = json.commitRow;
  return out;
}

/**
 * The chunk as the client's stream decodes it: proto3 defaults for unset
 * scalars (empty bytes, `'0'` for int64, `0`, `false`), `null` for an unset
 * wrapper.
 */
function decodedChunk(json: JsonChunk): ReadRowsChunk {
  return {
    rowKey: base64(json.rowKey ?? ''),
    familyName: json.familyName === undefined ? null : { value: json.familyName },
    qualifier: json.qualifier === undefined ? null : { value: base64(json.qualifier) },
    timestampMicros: json.timestampMicros ?? '0',
    value: base64(json.value ?? ''),
    valueSize: json.valueSize ?? 0,
    resetRow: json.resetRow ?? false,
    commitRow: json.commitRow ?? false,
  };
}

type Cells = Record<string, Record<string, { value: Buffer; timestampMicros: number }[]>>;

interface ExpectedRow {
  key: Buffer;
  cells: Cells;
}

/** The case's result cells grouped into rows, families and columns, versions in the order listed. */
function expectedRows(results: readonly JsonResult[]): ExpectedRow[] {
  const rows: ExpectedRow[] = [];
  for (const result of results) {
    if (result.error === true) continue;
    const key = Buffer.from(result.rowKey ?? '', 'utf8');
    let row = rows.at(-1);
    if (row === undefined || !row.key.equals(key)) {
      row = { key, cells: {} };
      rows.push(row);
    }
    const family = (row.cells[result.familyName ?? ''] ??= {});
    const versions = (family[result.qualifier ?? ''] ??= []);
    versions.push({
      value: Buffer.from(result.value ?? '', 'utf8'),
      timestampMicros: Number(result.timestampMicros ?? '0'),
    });
  }
  return rows;
}

/** Feeds the chunks one response each, then ends the stream; returns the rows committed and what was thrown, if anything. */
function run(chunks: readonly ReadRowsChunk[]): { rows: RowData[]; error: unknown } {
  const merger = new ChunkMerger();
  const rows: RowData[] = [];
  try {
    for (const chunk of chunks) merger.push([chunk], (row) => rows.push(row));
    merger.finish();
  } catch (error) {
    return { rows, error };
  }
  return { rows, error: undefined };
}

describe('ReadRows conformance (readrows.json) against ChunkMerger', () => {
  it('holds every case of the vendored file', () => {
    expect(CASES).toHaveLength(48);
    expect(new Set(CASES.map((c) => c.description)).size).toBe(CASES.length);
  });

  describe.each([
    ['fields left out', sparseChunk],
    ['as the client decodes them', decodedChunk],
  ] as const)('chunks with unset fields %s', (_shape, toChunk) => {
    it.each(CASES.map((c) => [c.description, c] as const))('%s', (_description, testCase) => {
      const results = testCase.results ?? [];
      const { rows, error } = run((testCase.chunks ?? []).map(toChunk));
      if (results.at(-1)?.error === true) expect(error).toBeInstanceOf(InvalidChunkError);
      else expect(error).toBeUndefined();
      expect(rows).toEqual(expectedRows(results));
    });
  });
});
