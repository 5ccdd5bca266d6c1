import { ValidationError } from '../../src/errors/errors.js';
import type { RowFilter } from '../../src/model/row-filter.js';
import { escapeRe2 } from '../../src/driver/row-filter-message.js';

/**
 * One filter object in the client's filter language (`Filter.parse` reads only
 * the first key of each object). `Buffer` names and values are regex-escaped by
 * the client; strings are raw RE2 regexes, so we only ever send escaped ones.
 * @internal
 * @example
 * ```ts
 * const f: ClientFilterObject = { column: { cellLimit: 1 } };
 * ```
 */
type ClientFilterObject =
  | { readonly family: string }
  | { readonly column: Buffer | readonly Buffer[] | { readonly cellLimit: number } }
  | { readonly time: { readonly start?: Date; readonly end?: Date } }
  | { readonly value: Buffer | { readonly strip: true } }
  | { readonly all: boolean }
  | { readonly interleave: readonly ClientFilter[] }
  | { readonly condition: { readonly test: ClientFilter; readonly pass: ClientFilter; readonly fail: ClientFilter } };

/**
 * A client filter: one object, or an array of objects applied in order (a chain).
 * @internal
 */
export type ClientFilter = ClientFilterObject | readonly ClientFilterObject[];

/**
 * Converts our {@link RowFilter} to the filter language of the client's own
 * `Table` API (`createReadStream({ filter })`), for code that reads through
 * the client directly, such as a baseline next to the mapper: the client
 * compiles it to the same `RowFilter` message the driver sends
 * ({@link toRowFilterMessage}; a test pins the two equal). Chains
 * become flat arrays, family names are escaped, qualifiers and values are sent
 * as `Buffer`s (which the client escapes), time bounds as `Date`s (numbers are
 * silently ignored by the client). Empty `qualifiers`/`interleave` block
 * everything and an empty `chain` passes everything.
 * @internal
 */
export function toClientFilter(filter: RowFilter): ClientFilter {
  switch (filter.kind) {
    case 'chain': {
      const steps = filter.filters.flatMap((f) => asChain(toClientFilter(f)));
      if (steps.length === 0) return { all: true };
      return steps.length === 1 ? (steps[0] as ClientFilterObject) : steps;
    }
    case 'interleave': {
      if (filter.filters.length === 0) return { all: false };
      if (filter.filters.length === 1) return toClientFilter(filter.filters[0] as RowFilter);
      return { interleave: filter.filters.map(toClientFilter) };
    }
    case 'family':
      return { family: escapeRe2(filter.name) };
    case 'qualifiers': {
      const names = filter.names.map((name) => Buffer.from(name, 'utf8'));
      if (names.length === 0) return { all: false };
      return { column: names.length === 1 ? (names[0] as Buffer) : names };
    }
    case 'cellsPerColumn':
      return { column: { cellLimit: filter.limit } };
    case 'timestampRange':
      return timeFilter(filter.startMicros, filter.endMicros);
    case 'valueEquals':
      return { value: filter.value };
    case 'stripValue':
      return { value: { strip: true } };
    case 'condition':
      return {
        condition: {
          test: toClientFilter(filter.test),
          pass: toClientFilter(filter.pass),
          fail: toClientFilter(filter.fail),
        },
      };
    case 'passAll':
      return { all: true };
    case 'blockAll':
      return { all: false };
    default:
      return unknownFilter(filter);
  }
}

function asChain(filter: ClientFilter): readonly ClientFilterObject[] {
  return Array.isArray(filter) ? (filter as readonly ClientFilterObject[]) : [filter as ClientFilterObject];
}

/**
 * `[start, end)` in microseconds. Cells have millisecond granularity and the
 * client takes `Date`s (whole milliseconds), so both bounds round up: a cell at
 * `t` (a multiple of 1000) satisfies `t >= s` iff `t >= ceil(s/1000)*1000`.
 */
function timeFilter(startMicros: number | undefined, endMicros: number | undefined): ClientFilterObject {
  if (startMicros === undefined && endMicros === undefined) return { all: true };
  const time: { start?: Date; end?: Date } = {};
  if (startMicros !== undefined) time.start = new Date(Math.ceil(startMicros / 1000));
  if (endMicros !== undefined) time.end = new Date(Math.ceil(endMicros / 1000));
  return { time };
}

function unknownFilter(filter: never): never {
  const kind = (filter as { kind?: unknown }).kind;
  throw new ValidationError(
    `Unknown RowFilter kind ${JSON.stringify(kind)}. Fix: build filters with the RowFilter kinds.`,
    { kind },
  );
}
