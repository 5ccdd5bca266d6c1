import 'reflect-metadata';
import { MetadataError } from '../errors/errors.js';

const EXPECTED: Record<string, Function> = {
  string: String,
  uint: Number,
  int: Number,
  float: Number,
  bigint: BigInt,
  timestamp: Date,
  date: Date,
  boolean: Boolean,
  bytes: Buffer,
};

/**
 * Double-checks a declared type against TypeScript's `design:type` when the
 * compiler emitted it (legacy decorators with `emitDecoratorMetadata`); silent
 * otherwise, since standard decorators, esbuild, tsx and vitest don't emit it.
 * Every type is declared, so nothing is ever inferred from it.
 * @internal
 */
export function checkDesignType(entity: string, target: Function, property: string, declared: unknown): void {
  const emitted: unknown = Reflect.getMetadata('design:type', target.prototype as object, property);
  if (typeof declared !== 'string') return;
  const expected = EXPECTED[declared];
  if (expected === undefined || typeof emitted !== 'function' || emitted === Object || emitted === Array) return;
  if (emitted === expected || (expected === Buffer && emitted === Uint8Array)) return;
  throw new MetadataError(
    entity,
    property,
    `is declared as type '${declared}' but its TypeScript type is ${emitted.name}`,
    `make the property's type ${expected.name}, or change the declared type`,
  );
}
