import type { KeyComponentCodec } from '../codec/codec-contracts.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { range } from '../scan/scan-query.js';
import { printableBytes } from '../util/printable-bytes.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { CliUsageError } from './cli-errors.js';

const BOUNDS = new Set(['gt', 'gte', 'lt', 'lte']);

/** Files the command reads are bounded: a workload, a report or a list of keys, not a data set. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file named on the command line (relative to `cwd`), as text; refused when unreadable or over 64 MiB. */
export async function readTextFile(cwd: string, file: string, what: string): Promise<string> {
  try {
    const buffer = await readFile(resolve(cwd, file));
    if (buffer.length > MAX_FILE_BYTES) throw new Error(`over ${MAX_FILE_BYTES} bytes`);
    return buffer.toString('utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read ${what} ${file}: ${(error as Error).message}`, 'give a readable file');
  }
}

/** A flag's value that must be a positive safe integer (commander reports the error with the flag's name). */
export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** Parses a JSON argument; the error names the flag and shows where the JSON broke. */
export function parseJsonArgument(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliUsageError(
      `${what} is not valid JSON (${(error as Error).message})`,
      `quote it for the shell, e.g. '{"id":"a"}'`,
    );
  }
}

/**
 * Parses the JSON document of a file named on the command line (`what` names
 * the flag and the file). The error says where the JSON breaks, by line and
 * column, and quotes the text there; text after a whole document (a second
 * output, a note copied with it) is said to be that.
 */
export function parseJsonFile(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw jsonFileError(text, what, (error as Error).message);
  }
}

function jsonFileError(text: string, what: string, message: string): CliUsageError {
  const fix = 'give a file holding one JSON document, e.g. the --json output of one command';
  if (text.trim() === '') return new CliUsageError(`${what} is empty`, fix);
  const bad = firstBadCharacter(text);
  if (bad === undefined) return new CliUsageError(`${what} ends inside its JSON document (${message})`, fix);
  const where = lineAndColumn(text, bad);
  if (completeJson(text.slice(0, bad))) {
    return new CliUsageError(
      `${what} has more after its JSON document: at ${where}, ${quoted(text.slice(bad))}`,
      'keep only the JSON document in the file, e.g. the --json output of one command, and remove the rest',
    );
  }
  return new CliUsageError(`${what} is not valid JSON at ${where}, at ${quoted(text.slice(bad))}`, fix);
}

/**
 * Where the JSON of `text` goes wrong: the first character no JSON document
 * can continue with (every longer text fails too, so a binary search over the
 * prefixes finds it); `undefined` when the text only ends too soon.
 */
function firstBadCharacter(text: string): number | undefined {
  if (jsonPrefix(text)) return undefined;
  let low = 0; // a prefix of this length can start a document
  let high = text.length; // one of this length cannot
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (jsonPrefix(text.slice(0, middle))) low = middle;
    else high = middle;
  }
  return high - 1;
}

/** Whether `text` is a JSON document, or the start of one that only ends too soon. */
function jsonPrefix(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    const at = /\bposition (\d+)/.exec(message);
    return at === null ? /end of JSON input/i.test(message) : Number(at[1]) >= text.length;
  }
}

function completeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `line L, column C` (both from 1) of a character position in `text`. */
function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  return `line ${before.split('\n').length}, column ${position - before.lastIndexOf('\n')}`;
}

/** The text from a position to the end of its line, at most 60 characters, quoted. */
function quoted(text: string): string {
  const line = text.split('\n', 1)[0]!.trimEnd();
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
}

/**
 * Turns JSON key values into the values the key codecs take: ISO text or epoch
 * milliseconds become `Date` for `timestamp` parts, decimal text becomes
 * `bigint` for `bigint` parts, hex text (or `base64:` and base64 text) becomes
 * a `Buffer` for `bytes` parts, and `"true"`/`"false"` become booleans for
 * `boolean` parts. Unknown names are refused with the known ones.
 */
export function keyValuesFromJson(schema: EntitySchema, json: unknown, what: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(plainObject(json, what))) {
    values[name] = coerce(codecOf(schema, name, what), value, `${what}.${name}`);
  }
  return values;
}

/** Like {@link keyValuesFromJson}, and objects of `gt`/`gte`/`lt`/`lte` bounds become `range()`s. */
export function whereFromJson(schema: EntitySchema, json: unknown): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(plainObject(json, '--where'))) {
    const codec = codecOf(schema, name, '--where');
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const bounds: Record<string, unknown> = {};
      for (const [bound, bv] of Object.entries(value as Record<string, unknown>)) {
        if (!BOUNDS.has(bound)) throw new CliUsageError(`--where.${name} has "${bound}"`, 'use gt, gte, lt or lte');
        bounds[bound] = coerce(codec, bv, `--where.${name}.${bound}`);
      }
      where[name] = range(bounds);
    } else {
      where[name] = coerce(codec, value, `--where.${name}`);
    }
  }
  return where;
}

/** Key values as JSON-safe data: dates as ISO text, bigints as decimal text. */
export function jsonSafe(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return printableBytes(value);
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonSafe(v)]));
  }
  return value;
}

/** A physical key from the command line: text with `\xNN` escapes (as `printableBytes` prints it), or hex/base64 with `--format`. */
export function parseKeyText(text: string, format: 'text' | 'hex' | 'base64'): Buffer {
  if (format === 'hex') {
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw new CliUsageError('the key is not hex', 'give pairs of hex digits');
    return Buffer.from(text, 'hex');
  }
  if (format === 'base64') return Buffer.from(text, 'base64');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === '\\') {
      bytes.push(0x5c);
      i++;
    } else if (text[i] === '\\' && text[i + 1] === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
      bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else {
      bytes.push(...Buffer.from(String.fromCodePoint(text.codePointAt(i)!), 'utf8'));
      if (text.codePointAt(i)! > 0xffff) i++;
    }
  }
  return Buffer.from(bytes);
}

function plainObject(json: unknown, what: string): Record<string, unknown> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new CliUsageError(`${what} must be a JSON object of key parts`, `e.g. '{"userId":"u1"}'`);
  }
  return json as Record<string, unknown>;
}

function codecOf(schema: EntitySchema, name: string, what: string): KeyComponentCodec {
  for (const c of schema.key.components) if (c.kind === 'property' && c.property === name) return c.codec;
  throw new CliUsageError(
    `${what}: ${schema.name} has no key part "${name}"`,
    `use the key parts ${schema.key.properties.join(', ')}`,
  );
}

function coerce(codec: KeyComponentCodec, value: unknown, what: string): unknown {
  switch (codec.type) {
    case 'timestamp': {
      const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
      if (date === undefined || Number.isNaN(date.getTime())) {
        throw new CliUsageError(
          `${what} is not a timestamp`,
          'give ISO text (2026-01-31T12:00:00Z) or epoch milliseconds',
        );
      }
      return date;
    }
    case 'bigint':
      if (
        (typeof value === 'string' && /^-?\d+$/.test(value)) ||
        (typeof value === 'number' && Number.isSafeInteger(value))
      ) {
        return BigInt(value);
      }
      throw new CliUsageError(`${what} is not an integer`, 'give decimal digits, as a JSON string for large values');
    case 'bytes':
      return bytesValue(value, what);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new CliUsageError(`${what} is not a boolean`, 'give true or false');
    default:
      return value;
  }
}

const HEX_PAIRS = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A `bytes` key value: hex digit pairs (the key text), or `base64:` and standard base64 (text that is hex could be either, so base64 is marked). */
function bytesValue(value: unknown, what: string): Buffer {
  if (typeof value === 'string' && HEX_PAIRS.test(value)) return Buffer.from(value, 'hex');
  if (typeof value === 'string' && value.startsWith('base64:')) {
    const text = value.slice('base64:'.length);
    if (text !== '' && BASE64.test(text)) return Buffer.from(text, 'base64');
  }
  throw new CliUsageError(
    `${what} is not bytes`,
    'give pairs of hex digits ("00ff"), or base64 after "base64:" ("base64:AP8=")',
  );
}
