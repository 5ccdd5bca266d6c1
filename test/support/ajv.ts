import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/** ajv-formats is CommonJS: its plugin is the module's default export, which ES module interop may or may not unwrap. */
const addFormats = ((formats as unknown as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => Ajv2020;

/**
 * Ajv for JSON Schema draft 2020-12 in strict mode (unknown keywords,
 * formats and loose types are errors), with every error reported and the
 * formats of `ajv-formats` (`date-time` among them) asserted.
 *
 * @example
 * ```ts
 * const valid = strictAjv().compile(toJsonSchema(Sensor, { for: 'create' }));
 * valid({ site: 'oslo' }); // false
 * ```
 */
export function strictAjv(): Ajv2020 {
  return addFormats(new Ajv2020({ strict: true, allErrors: true }));
}

/**
 * Compiles `schema` with {@link strictAjv}.
 *
 * @example
 * ```ts
 * compileStrict({ type: 'string', format: 'date-time' })('2024-05-01T12:00:00Z'); // true
 * ```
 */
export function compileStrict(schema: object): ValidateFunction {
  return strictAjv().compile(schema);
}
