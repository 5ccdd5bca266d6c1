import { ValidationError, type ValidationIssue } from './errors.js';

/**
 * A problem as a validator (or the JSON reader) reports it, before it is made
 * safe to show: the entity property, the path inside its value (Standard
 * Schema path segments: property keys, or `{ key }` objects) and the message.
 * @internal
 */
export interface FoundIssue {
  readonly property: string;
  readonly path: readonly unknown[];
  readonly message: unknown;
}

/** Most issues a `ValidationError` lists; `details.issuesOmitted` counts the rest. */
const MAX_ISSUES = 100;
/** Most issues its message quotes. */
const MAX_ISSUES_IN_MESSAGE = 10;
/** Longest message of one issue, and longest key of one path segment, in UTF-16 units. */
const MAX_MESSAGE = 200;
const MAX_SEGMENT = 40;
/** Most path segments shown after the property. */
const MAX_SEGMENTS = 20;
/** Longest property name an issue gives (an entity's own names are shorter; a JSON body's need not be). */
const MAX_PROPERTY = 80;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The `ValidationError` for values that failed: it lists every issue (at
 * most 100) as `Entity.property` and the path inside the value with the
 * message, each bounded in length (a validator may quote the input, which
 * can be hostile), and quotes the first 10 in its message.
 * @internal
 */
export function invalidValues(
  entity: string,
  found: readonly FoundIssue[],
  what: string,
  fix: string,
): ValidationError {
  const issues: ValidationIssue[] = found.slice(0, MAX_ISSUES).map((issue) => ({
    // A property named in a hostile JSON body may be any length.
    property: bounded(issue.property, MAX_PROPERTY),
    path: issuePath(entity, issue.property, issue.path),
    message: bounded(typeof issue.message === 'string' && issue.message !== '' ? issue.message : 'invalid value'),
  }));
  const quoted = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((issue) => `${issue.path}: ${issue.message}`);
  const more = found.length - quoted.length;
  const count = found.length === 1 ? 'an issue' : `${found.length} issues`;
  const tail = more > 0 ? `; and ${more} more` : '';
  const omitted = found.length - issues.length;
  return new ValidationError(
    `${entity}: ${what} (${count}): ${quoted.join('; ')}${tail}. Fix: ${fix}`,
    { entity, ...(omitted > 0 ? { issuesOmitted: omitted } : {}) },
    issues,
  );
}

/** `Entity.property` followed by the segments: `.name` for identifiers, `[n]` for indexes, `["…"]` for other keys. */
function issuePath(entity: string, property: string, segments: readonly unknown[]): string {
  let path = `${entity}${segment(property)}`;
  for (const raw of segments.slice(0, MAX_SEGMENTS)) path += segment(keyOf(raw));
  return segments.length > MAX_SEGMENTS ? `${path}…` : path;
}

/** A Standard Schema path segment is a property key or `{ key }`. */
function keyOf(raw: unknown): unknown {
  return raw !== null && typeof raw === 'object' && 'key' in raw ? (raw as { key: unknown }).key : raw;
}

function segment(key: unknown): string {
  if (typeof key === 'number' && Number.isInteger(key) && key >= 0) return `[${key}]`;
  if (typeof key === 'string') {
    if (IDENTIFIER.test(key) && key.length <= MAX_SEGMENT) return `.${key}`;
    return `[${JSON.stringify(bounded(key, MAX_SEGMENT))}]`;
  }
  if (typeof key === 'symbol') return `[${bounded(String(key), MAX_SEGMENT)}]`;
  if (typeof key === 'number') return `[${String(key)}]`;
  return '[?]';
}

/** `text` cut to `max` UTF-16 units with an ellipsis, never between the two halves of a surrogate pair. */
function bounded(text: string, max: number = MAX_MESSAGE): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
