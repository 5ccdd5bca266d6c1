import type { KeyPlan } from '../metadata/entity-schema.js';
import { digitsBytesDecoder, type DigitsBytesDecoder } from '../codec/key-codec-digits.js';
import type { KeySchema } from './row-key-components.js';
import { sameBytesAt } from '../util/compare-bytes.js';

/** One component of a key layout that decodes straight from bytes. */
type ByteStep =
  | { readonly literal: Buffer; readonly property?: undefined; readonly decode?: undefined }
  | { readonly literal?: undefined; readonly property: string; readonly decode: DigitsBytesDecoder };

/** A logical key layout of literals and digit components, split by a one-byte ASCII separator. */
interface ByteLayout {
  readonly separator: number;
  readonly steps: readonly ByteStep[];
}

const layouts = new WeakMap<KeyPlan, ByteLayout | null>();

/**
 * Decodes the logical key that starts at byte `start` of a physical key (0,
 * or after the salt segment) straight from the bytes when the layout has only
 * literals and digit components (`uint`, epoch timestamps), skipping the
 * UTF-8 text: the same values `decodeLogicalKey` returns for that part of the
 * key's text. `undefined` when the layout or this key needs the text path
 * (which also throws the errors): another component type, a layout mismatch,
 * a component that does not decode.
 *
 * The separator is ASCII, and UTF-8 decoding never turns other bytes into an
 * ASCII character nor swallows one, so the byte segments are the text's
 * components; literals and digits match byte for byte.
 *
 * @example
 * ```ts
 * decodeKeyBytes(schema, Buffer.from('row#0000000042'), 0); // { id: 42 } for `row#<uint width 10>`
 * ```
 * @internal
 */
export function decodeKeyBytes(schema: KeySchema, key: Uint8Array, start: number): Record<string, unknown> | undefined {
  let layout = layouts.get(schema.key);
  if (layout === undefined) {
    layout = byteLayout(schema.key);
    layouts.set(schema.key, layout);
  }
  if (layout === null) return undefined;
  const { separator, steps } = layout;
  const last = steps.length - 1;
  const values: Record<string, unknown> = {};
  for (let index = 0; index <= last; index++) {
    let end = start;
    while (end < key.length && key[end] !== separator) end++;
    if (index < last ? end === key.length : end !== key.length) return undefined;
    const step = steps[index] as ByteStep;
    if (step.literal !== undefined) {
      if (!sameBytesAt(key, start, end, step.literal)) return undefined;
    } else {
      const value = step.decode(key, start, end);
      if (value === undefined) return undefined;
      values[step.property] = value;
    }
    start = end + 1;
  }
  return values;
}

/** The byte layout of a key plan; `null` when some part needs the text path. */
function byteLayout(plan: KeyPlan): ByteLayout | null {
  if (plan.separator.length !== 1 || plan.separator.charCodeAt(0) >= 0x80 || plan.components.length === 0) return null;
  const steps: ByteStep[] = [];
  for (const component of plan.components) {
    if (component.kind === 'literal') {
      const literal = Buffer.from(component.literal, 'utf8');
      if (literal.toString('utf8') !== component.literal) return null;
      steps.push({ literal });
      continue;
    }
    const decode = digitsBytesDecoder(component.codec);
    if (decode === undefined) return null;
    steps.push({ property: component.property, decode });
  }
  return { separator: plan.separator.charCodeAt(0), steps };
}
