import type { KeyPartType } from '../model/declarations.js';
import { seededRandom, zipfSampler, type Random } from './random.js';
import type { KeyGenerator } from './workload.js';

/** 2026-01-01T00:00:00Z: where `sequential-time` starts when the workload gives no `start`. */
const DEFAULT_START_MS = Date.UTC(2026, 0, 1);

/**
 * Draws one key property's value for a write at `elapsedMs` of simulated time.
 * @internal
 */
export type ValueSource = (random: Random, elapsedMs: number) => unknown;

/**
 * The value source of a checked generator, producing values of the key
 * part's type (see {@link KeyGenerator} for the conversions). `seed` fixes the
 * zipf shuffle.
 * @internal
 */
export function valueSource(property: string, type: KeyPartType, generator: KeyGenerator, seed: number): ValueSource {
  switch (generator.kind) {
    case 'sequential-time': {
      const start = generator.start === undefined ? DEFAULT_START_MS : toEpochMs(generator.start);
      const stepMs = generator.stepMs ?? 1;
      return (_random, elapsedMs) => fromEpochMs(type, start + Math.floor(elapsedMs / stepMs) * stepMs);
    }
    case 'zipf': {
      const { entities } = generator;
      const draw = zipfSampler(entities, generator.exponent ?? 1);
      const order = shuffled(entities, seed);
      const id = idValue(property, type, entities, generator.prefix);
      return (random) => id(order[draw(random) - 1] as number);
    }
    case 'celebrity': {
      const entities = generator.entities ?? 10_000;
      const id = idValue(property, type, entities, generator.prefix);
      const celebrity = entities >> 1;
      return (random) => {
        if (random.next() < generator.share) return id(celebrity);
        const other = Math.floor(random.next() * (entities - 1));
        return id(other < celebrity ? other : other + 1);
      };
    }
    case 'uniform': {
      const { values } = generator;
      if (typeof values === 'number') {
        const id = idValue(property, type, values, generator.prefix);
        return (random) => id(Math.floor(random.next() * values));
      }
      const converted = values.map((v) => fromJson(type, v));
      return (random) => converted[Math.floor(random.next() * converted.length)];
    }
    case 'constant': {
      const value = fromJson(type, generator.value);
      return () => value;
    }
  }
}

/** Generated value number `id` of `count`, in the key part's type. */
function idValue(property: string, type: KeyPartType, count: number, prefix = `${property}-`): (id: number) => unknown {
  const digits = String(Math.max(0, count - 1)).length;
  switch (type) {
    case 'string':
      return (id) => `${prefix}${String(id).padStart(digits, '0')}`;
    case 'bigint':
      return (id) => BigInt(id);
    case 'timestamp':
      return (id) => new Date(id);
    case 'bytes': {
      const width = Math.max(1, Math.ceil(Math.log2(Math.max(2, count)) / 8));
      return (id) => bigEndian(id, width);
    }
    case 'boolean':
      return (id) => id % 2 === 1;
    default:
      return (id) => id;
  }
}

/** A JSON key value given by the workload, in the key part's type. */
function fromJson(type: KeyPartType, value: string | number): unknown {
  switch (type) {
    case 'timestamp':
      return new Date(toEpochMs(value));
    case 'bigint':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : toBigInt(value);
    case 'string':
      return String(value);
    case 'bytes':
      return typeof value === 'string' && /^(?:[0-9a-fA-F]{2})+$/.test(value) ? Buffer.from(value, 'hex') : value;
    case 'boolean':
      return value === 'true' || value === 1 ? true : value === 'false' || value === 0 ? false : value;
    case 'float':
      return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
    default:
      return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  }
}

/** An epoch-milliseconds time in the key part's type. */
function fromEpochMs(type: KeyPartType, ms: number): unknown {
  switch (type) {
    case 'timestamp':
      return new Date(ms);
    case 'bigint':
      return BigInt(Math.floor(ms));
    case 'string':
      return new Date(ms).toISOString();
    case 'bytes':
      return bigEndian(Math.floor(ms), 8);
    case 'boolean':
      return Math.floor(ms) % 2 === 1;
    default:
      return Math.floor(ms);
  }
}

/** A non-negative safe integer as `width` big-endian bytes, so byte order is number order. */
function bigEndian(n: number, width: number): Buffer {
  const bytes = Buffer.alloc(width);
  let rest = n;
  for (let i = width - 1; i >= 0 && rest > 0; i--) {
    bytes[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return bytes;
}

function toEpochMs(value: string | number): number {
  return typeof value === 'number' ? value : Date.parse(value);
}

/** A digit string or integer as a bigint; anything else is left for the key codec to reject with its own message. */
function toBigInt(value: string | number): unknown {
  return typeof value === 'string' && /^-?\d{1,40}$/.test(value) ? BigInt(value) : value;
}

/** A seeded permutation of 0..n-1 (Fisher–Yates). */
function shuffled(n: number, seed: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const random = seededRandom(seed, 101);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    const t = order[i] as number;
    order[i] = order[j] as number;
    order[j] = t;
  }
  return order;
}
