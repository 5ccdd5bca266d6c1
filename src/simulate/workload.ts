import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';

/**
 * How the simulator draws one key part's values. Plain JSON, so a workload can
 * be read from a file:
 *
 * - `sequential-time`: the write's own time, `start` plus the elapsed
 *   simulated time, rounded down to `stepMs` (the key's resolution). Every
 *   write gets a key after all earlier ones: the timestamp-first hotspot.
 * - `zipf`: `entities` distinct values; the value of popularity rank r is
 *   drawn with probability proportional to `1 / r^exponent`. Ranks are
 *   scattered over the values (a seeded shuffle), so popular values do not
 *   sit next to each other in key order.
 * - `celebrity`: one value (the middle one of `entities`, so it sits inside
 *   the key space rather than at its edge) takes `share` of the writes; the
 *   rest spread evenly over the other `entities - 1`.
 * - `uniform`: `values` given as a list, or as a count of generated values.
 * - `constant`: always `value`.
 *
 * Generated values are numbers for numeric key parts, `prefix` + zero-padded
 * digits for string parts (default prefix: the property name and `-`),
 * `Date`s for timestamp parts, big-endian `Buffer`s of the number for bytes
 * parts (just wide enough for the ids; 8 bytes of epoch milliseconds for
 * `sequential-time`), and odd/even as `true`/`false` for boolean parts. Given
 * values (`value`, `values`, `start`) are JSON: ISO text or epoch milliseconds
 * become `Date`s for timestamp parts, numbers or digit strings become
 * `bigint`s for bigint parts, hex text becomes a `Buffer` for bytes parts,
 * `"true"`/`"false"` or 1/0 become booleans and numeric text a number for
 * boolean and float parts.
 *
 * @example
 * ```ts
 * const user: KeyGenerator = { kind: 'celebrity', share: 0.5, entities: 10_000 };
 * const at: KeyGenerator = { kind: 'sequential-time', start: '2026-01-01T00:00:00Z', stepMs: 1 };
 * ```
 */
export type KeyGenerator =
  | {
      /** The write's own time. */
      readonly kind: 'sequential-time';
      /** First time: ISO text or epoch milliseconds. Default 2026-01-01T00:00:00Z. */
      readonly start?: string | number;
      /** Resolution of the time in milliseconds. Default 1. */
      readonly stepMs?: number;
    }
  | {
      /** Many values with Zipf popularity. */
      readonly kind: 'zipf';
      /** Number of distinct values (1 to 1,000,000). */
      readonly entities: number;
      /** Zipf exponent (0 to 10; 0 is uniform). Default 1. */
      readonly exponent?: number;
      /** Text before the digits of string values. Default: the property name and `-`. */
      readonly prefix?: string;
    }
  | {
      /** One value takes `share` of the writes. */
      readonly kind: 'celebrity';
      /** The celebrity's share of the writes (0 to 1). */
      readonly share: number;
      /** Number of distinct values, the celebrity included (2 to 1,000,000). Default 10,000. */
      readonly entities?: number;
      /** Text before the digits of string values. Default: the property name and `-`. */
      readonly prefix?: string;
    }
  | {
      /** Values drawn evenly. */
      readonly kind: 'uniform';
      /** The values (1 to 100,000 JSON values), or how many to generate (1 to 1,000,000). */
      readonly values: number | readonly (string | number)[];
      /** Text before the digits of generated string values. Default: the property name and `-`. */
      readonly prefix?: string;
    }
  | {
      /** Always the same value. */
      readonly kind: 'constant';
      /** The value, as JSON. */
      readonly value: string | number;
    };

/**
 * A write workload for {@link simulateHotspots}: one generator per key
 * property of the entity, a rate and a duration. JSON-safe.
 *
 * @example
 * ```ts
 * const workload: Workload = {
 *   keys: { sensorId: { kind: 'uniform', values: 5000 }, ts: { kind: 'sequential-time' } },
 *   writesPerSecond: 4000,
 *   durationSeconds: 1800,
 *   seed: 7,
 * };
 * ```
 */
export interface Workload {
  /** A generator for every key property (literals need none). */
  readonly keys: Readonly<Record<string, KeyGenerator>>;
  /** Writes per second at full rate (1 to 10^9). */
  readonly writesPerSecond: number;
  /** Simulated time in seconds (up to 30 days). */
  readonly durationSeconds: number;
  /** PRNG seed: the same seed gives the same report. Default 1. */
  readonly seed?: number;
  /** The write rate rises linearly from 0 to `writesPerSecond` over this many seconds. Default 0 (full rate at once). */
  readonly rampSeconds?: number;
  /** Bytes one write adds to its tablet (for size-based splits). Default 1024. */
  readonly rowBytes?: number;
  /** Length of one simulated time step in seconds. Default: `durationSeconds / 120`, at least 1. */
  readonly stepSeconds?: number;
}

/** A workload with its defaults filled in and every field checked. @internal */
export interface ResolvedWorkload {
  readonly keys: Readonly<Record<string, KeyGenerator>>;
  readonly writesPerSecond: number;
  readonly durationSeconds: number;
  readonly seed: number;
  readonly rampSeconds: number;
  readonly rowBytes: number;
  readonly stepSeconds: number;
  readonly steps: number;
}

/** Bounds on what a workload may ask for, so hostile input cannot exhaust memory or time. */
const MAX_ENTITIES = 1_000_000;
const MAX_VALUES = 100_000;
const MAX_STEPS = 2_000;
const MAX_DURATION_S = 30 * 24 * 3600;

/**
 * Checks a workload against the entity's key properties and fills in the
 * defaults. Throws `ValidationError` naming `Workload.<field>` and the fix.
 * @internal
 */
export function resolveWorkload(
  workload: Workload,
  keyProperties: readonly string[],
  entity: string,
): ResolvedWorkload {
  if (workload === null || typeof workload !== 'object') {
    throw fail(
      'Workload',
      `must be an object, got ${preview(workload)}`,
      'pass { keys, writesPerSecond, durationSeconds }',
    );
  }
  const keys = checkKeys(workload.keys, keyProperties, entity);
  const writesPerSecond = number('Workload.writesPerSecond', workload.writesPerSecond, 1e-3, 1e9);
  const durationSeconds = number('Workload.durationSeconds', workload.durationSeconds, 1, MAX_DURATION_S);
  const seed = workload.seed === undefined ? 1 : integer('Workload.seed', workload.seed, -(2 ** 31), 2 ** 32);
  const rampSeconds =
    workload.rampSeconds === undefined ? 0 : number('Workload.rampSeconds', workload.rampSeconds, 0, durationSeconds);
  const rowBytes =
    workload.rowBytes === undefined ? 1024 : number('Workload.rowBytes', workload.rowBytes, 1, 256 * 2 ** 20);
  const stepSeconds =
    workload.stepSeconds === undefined
      ? Math.max(1, durationSeconds / 120)
      : number('Workload.stepSeconds', workload.stepSeconds, durationSeconds / MAX_STEPS, durationSeconds);
  return {
    keys,
    writesPerSecond,
    durationSeconds,
    seed,
    rampSeconds,
    rowBytes,
    stepSeconds,
    steps: Math.max(1, Math.ceil(durationSeconds / stepSeconds - 1e-9)),
  };
}

function checkKeys(keys: unknown, keyProperties: readonly string[], entity: string): Record<string, KeyGenerator> {
  const list = keyProperties.join(', ');
  if (keys === null || typeof keys !== 'object' || Array.isArray(keys)) {
    throw fail(
      'Workload.keys',
      `must be an object with a generator per key property, got ${preview(keys)}`,
      `give generators for ${list}`,
    );
  }
  const given = keys as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!keyProperties.includes(name)) {
      throw fail(`Workload.keys.${name}`, `is not a key property of ${entity}`, `give generators only for ${list}`);
    }
  }
  const checked: Record<string, KeyGenerator> = {};
  for (const property of keyProperties) {
    if (!Object.hasOwn(given, property)) {
      throw fail(
        `Workload.keys.${property}`,
        `is missing: every key property of ${entity} needs a generator`,
        `add e.g. ${property}: { kind: 'uniform', values: 1000 }`,
      );
    }
    checked[property] = checkGenerator(`Workload.keys.${property}`, given[property]);
  }
  return checked;
}

function checkGenerator(path: string, generator: unknown): KeyGenerator {
  const kinds = "'sequential-time', 'zipf', 'celebrity', 'uniform' or 'constant'";
  if (generator === null || typeof generator !== 'object') {
    throw fail(path, `must be a generator object, got ${preview(generator)}`, `give { kind: ${kinds}, ... }`);
  }
  const g = generator as Record<string, unknown>;
  switch (g['kind']) {
    case 'sequential-time':
      if (g['start'] !== undefined) jsonValue(`${path}.start`, g['start']);
      if (g['stepMs'] !== undefined) number(`${path}.stepMs`, g['stepMs'], 1e-3, 1e12);
      break;
    case 'zipf':
      integer(`${path}.entities`, g['entities'], 1, MAX_ENTITIES);
      if (g['exponent'] !== undefined) number(`${path}.exponent`, g['exponent'], 0, 10);
      prefix(`${path}.prefix`, g['prefix']);
      break;
    case 'celebrity':
      number(`${path}.share`, g['share'], 0, 1);
      if (g['entities'] !== undefined) integer(`${path}.entities`, g['entities'], 2, MAX_ENTITIES);
      prefix(`${path}.prefix`, g['prefix']);
      break;
    case 'uniform':
      if (Array.isArray(g['values'])) {
        if (g['values'].length === 0 || g['values'].length > MAX_VALUES) {
          throw fail(
            `${path}.values`,
            `must list 1 to ${MAX_VALUES} values, got ${g['values'].length}`,
            'give a count instead of a long list',
          );
        }
        g['values'].forEach((v, i) => jsonValue(`${path}.values[${i}]`, v));
      } else integer(`${path}.values`, g['values'], 1, MAX_ENTITIES);
      prefix(`${path}.prefix`, g['prefix']);
      break;
    case 'constant':
      jsonValue(`${path}.value`, g['value']);
      break;
    default:
      throw fail(`${path}.kind`, `is ${preview(g['kind'])}`, `use ${kinds}`);
  }
  return generator as KeyGenerator;
}

function number(path: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw fail(path, `must be a number from ${min} to ${max}, got ${preview(value)}`, `give a number in that range`);
  }
  return value;
}

function integer(path: string, value: unknown, min: number, max: number): number {
  const checked = number(path, value, min, max);
  if (!Number.isInteger(checked)) {
    throw fail(path, `must be an integer, got ${preview(value)}`, 'give a whole number');
  }
  return checked;
}

function prefix(path: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'string' || value.length > 256)) {
    throw fail(
      path,
      `must be a string of at most 256 characters, got ${preview(value)}`,
      'give short text, or omit it',
    );
  }
}

function jsonValue(path: string, value: unknown): void {
  const ok =
    (typeof value === 'string' && value.length <= 1024) || (typeof value === 'number' && Number.isFinite(value));
  if (!ok)
    throw fail(
      path,
      `must be a string or a finite number, got ${preview(value)}`,
      'give key values as JSON text or numbers',
    );
}

function fail(path: string, problem: string, fix: string): ValidationError {
  return new ValidationError(`${path} ${problem}. Fix: ${fix}.`, { path, problem });
}
