import type { protos } from '@google-cloud/bigtable';
import { ValidationError } from '../errors/errors.js';
import type { RowFilter } from '../model/row-filter.js';

/**
 * A `google.bigtable.v2.RowFilter` as the generated client takes it.
 * @internal
 */
export type RowFilterMessage = protos.google.bigtable.v2.IRowFilter;

const RE2_META = /[\\^$.|?*+()[\]{}-]/g;

/**
 * Escapes RE2 metacharacters so a family name matches only itself
 * (full-match semantics: `g.x` must not match `gax`).
 * @internal
 */
export function escapeRe2(text: string): string {
  return text.replace(RE2_META, '\\$&');
}

const BACKSLASH = 0x5c;
const HYPHEN = 0x2d;
const HYPHEN_ESCAPE = Buffer.from('\\x2d');
/** 1 for the bytes escaped with a backslash: `| \ { } ( ) [ ] ^ $ + * ? .` */
const BYTE_META = new Uint8Array(256);
for (const char of '|\\{}()[]^$+*?.') BYTE_META[char.charCodeAt(0)] = 1;

/**
 * Escapes the RE2 metacharacters of a byte string so it matches only itself,
 * byte by byte (bytes that are not UTF-8 stay as they are): a backslash before
 * `| \ { } ( ) [ ] ^ $ + * ? .`, and `\x2d` for `-`: the same bytes as the
 * client's own filter compiler makes of a qualifier or value `Buffer`.
 * @internal
 */
export function escapeRegexBytes(bytes: Buffer): Buffer {
  let extra = 0;
  for (const byte of bytes) extra += byte === HYPHEN ? HYPHEN_ESCAPE.length - 1 : (BYTE_META[byte] as number);
  if (extra === 0) return bytes;
  const out = Buffer.allocUnsafe(bytes.length + extra);
  let at = 0;
  for (const byte of bytes) {
    if (byte === HYPHEN) {
      at += HYPHEN_ESCAPE.copy(out, at);
      continue;
    }
    if (BYTE_META[byte] === 1) out[at++] = BACKSLASH;
    out[at++] = byte;
  }
  return out;
}

const GROUP_OPEN = Buffer.from('(');
const ALTERNATION = Buffer.from('|');
const GROUP_CLOSE = Buffer.from(')');

/** One alternative per qualifier, `(a|b)` for several, as a byte string. */
function qualifierRegex(names: readonly string[]): Buffer {
  const escaped = names.map((name) => escapeRegexBytes(Buffer.from(name, 'utf8')));
  if (escaped.length === 1) return escaped[0] as Buffer;
  const parts = escaped.flatMap((part, i) => (i === 0 ? [part] : [ALTERNATION, part]));
  return Buffer.concat([GROUP_OPEN, ...parts, GROUP_CLOSE]);
}

/**
 * Converts our {@link RowFilter} to the `RowFilter` message. Chains are
 * flattened (a chain of one step is that step, an empty chain passes every
 * cell), an interleave of one filter is that filter and an empty one blocks
 * every cell; family names are escaped as RE2 text, qualifiers (UTF-8) and
 * values as bytes, so names match exactly; time bounds in microseconds round
 * up to whole milliseconds (cells have millisecond granularity: a cell at `t`
 * satisfies `t >= s` iff `t >= ceil(s/1000)*1000`). Throws `ValidationError`
 * for an unknown kind.
 * @internal
 */
export function toRowFilterMessage(filter: RowFilter): RowFilterMessage {
  const steps = chainSteps(filter);
  return steps.length === 1 ? (steps[0] as RowFilterMessage) : { chain: { filters: steps } };
}

/** The steps of `filter` as one chain: a chain's steps spliced in, any other filter as one step. */
function chainSteps(filter: RowFilter): RowFilterMessage[] {
  switch (filter.kind) {
    case 'chain': {
      const steps = filter.filters.flatMap(chainSteps);
      return steps.length === 0 ? [{ passAllFilter: true }] : steps;
    }
    case 'interleave':
      if (filter.filters.length === 0) return [{ blockAllFilter: true }];
      if (filter.filters.length === 1) return chainSteps(filter.filters[0] as RowFilter);
      return [{ interleave: { filters: filter.filters.map(toRowFilterMessage) } }];
    default:
      return [leafMessage(filter)];
  }
}

function leafMessage(filter: Exclude<RowFilter, { kind: 'chain' | 'interleave' }>): RowFilterMessage {
  switch (filter.kind) {
    case 'family':
      return { familyNameRegexFilter: escapeRe2(filter.name) };
    case 'qualifiers':
      if (filter.names.length === 0) return { blockAllFilter: true };
      return { columnQualifierRegexFilter: qualifierRegex(filter.names) };
    case 'cellsPerColumn':
      return { cellsPerColumnLimitFilter: filter.limit };
    case 'timestampRange':
      return timeFilter(filter.startMicros, filter.endMicros);
    case 'valueEquals':
      return { valueRegexFilter: escapeRegexBytes(filter.value) };
    case 'stripValue':
      return { stripValueTransformer: true };
    case 'condition':
      return {
        condition: {
          predicateFilter: toRowFilterMessage(filter.test),
          trueFilter: toRowFilterMessage(filter.pass),
          falseFilter: toRowFilterMessage(filter.fail),
        },
      };
    case 'passAll':
      return { passAllFilter: true };
    case 'blockAll':
      return { blockAllFilter: true };
    default:
      return unknownFilter(filter);
  }
}

/** `[start, end)` in microseconds, each bound rounded up to whole milliseconds (as a `Date` holds it). */
function timeFilter(startMicros: number | undefined, endMicros: number | undefined): RowFilterMessage {
  if (startMicros === undefined && endMicros === undefined) return { passAllFilter: true };
  const range: { startTimestampMicros?: number; endTimestampMicros?: number } = {};
  if (startMicros !== undefined) range.startTimestampMicros = wholeMilliseconds(startMicros);
  if (endMicros !== undefined) range.endTimestampMicros = wholeMilliseconds(endMicros);
  return { timestampRangeFilter: range };
}

/** Microseconds rounded up to a whole millisecond; NaN outside the range of a `Date`, as the client sent it. */
function wholeMilliseconds(micros: number): number {
  return new Date(Math.ceil(micros / 1000)).getTime() * 1000;
}

function unknownFilter(filter: never): never {
  const kind = (filter as { kind?: unknown }).kind;
  throw new ValidationError(
    `Unknown RowFilter kind ${JSON.stringify(kind)}. Fix: build filters with the RowFilter kinds.`,
    { kind },
  );
}
