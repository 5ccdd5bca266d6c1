import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import type { FoundIssue } from '../errors/validation-issues.js';
import type { StandardValidator } from '../model/standard-schema.js';

/** The Standard JSON Schema converter some validators carry beside `validate` (zod 4.2+, ArkType 2.1+). */
interface JsonSchemaConverter {
  readonly input?: unknown;
}

/**
 * The `validate` option of one `@Column` or `@KeyPart`, checked by the compile
 * pass. The validator itself sits in a private field, so the deep freeze of
 * the compiled schema never reaches it (a validator library may cache on its
 * schema objects).
 * @internal
 */
export class PropertyValidator {
  /** The entity class name and the property, for messages. */
  readonly entity: string;
  readonly property: string;
  /** The library that made the validator (its `~standard.vendor`). */
  readonly vendor: string;
  readonly #validator: StandardValidator;
  #jsonSchema: Readonly<Record<string, unknown>> | null | undefined;

  constructor(entity: string, property: string, validator: StandardValidator) {
    this.entity = entity;
    this.property = property;
    this.vendor = String(validator['~standard'].vendor);
    this.#validator = validator;
  }

  /**
   * Runs the validator on `value`: its issues, each path prefixed with
   * `path` (a version's `[i, 'value']`), or none when the value passes.
   * Throws `MetadataError` when the validator answers with a Promise (writes
   * are planned synchronously) or with something that is no Standard Schema
   * result.
   */
  check(value: unknown, path: readonly unknown[] = []): FoundIssue[] {
    const standard = this.#validator['~standard'];
    const result: unknown = standard.validate(value);
    if (isThenable(result)) {
      // Nobody awaits it: a rejection must not become an unhandled one.
      result.then(undefined, () => undefined);
      throw new MetadataError(
        this.entity,
        this.property,
        `its ${this.vendor} validator is asynchronous (validate returned a Promise), but writes are planned synchronously, before anything is sent`,
        'use a synchronous schema (no async refinements or transforms), or run the asynchronous check yourself before the write',
      );
    }
    if (result === null || typeof result !== 'object') {
      throw new MetadataError(
        this.entity,
        this.property,
        `its validator returned ${preview(result)}, not a Standard Schema result ({ value } or { issues })`,
        'pass a Standard Schema validator (zod, valibot, ArkType, ...) as validate',
      );
    }
    const issues = (result as { issues?: unknown }).issues;
    if (issues === undefined || issues === null || issues === false) return [];
    const listed = Array.isArray(issues) ? (issues as unknown[]) : [];
    if (listed.length === 0) return [{ property: this.property, path, message: 'invalid value' }];
    return listed.map((issue) => {
      const { message, path: inner } = (issue ?? {}) as { message?: unknown; path?: unknown };
      return {
        property: this.property,
        path: Array.isArray(inner) ? [...path, ...(inner as unknown[])] : path,
        message,
      };
    });
  }

  /**
   * The JSON Schema (draft 2020-12) of the values the validator accepts, when
   * it exposes one through Standard JSON Schema (`~standard.jsonSchema.input`,
   * as zod 4 and ArkType do); `undefined` when it exposes none or cannot
   * convert itself. Asked once.
   */
  jsonSchema(): Readonly<Record<string, unknown>> | undefined {
    if (this.#jsonSchema === undefined) this.#jsonSchema = this.#convert() ?? null;
    return this.#jsonSchema ?? undefined;
  }

  #convert(): Readonly<Record<string, unknown>> | undefined {
    const converter = (this.#validator['~standard'] as { jsonSchema?: JsonSchemaConverter }).jsonSchema;
    if (converter === null || typeof converter !== 'object' || typeof converter.input !== 'function') return undefined;
    try {
      const schema: unknown = (converter.input as (options: { target: string }) => unknown).call(converter, {
        target: 'draft-2020-12',
      });
      return schema !== null && typeof schema === 'object' && !Array.isArray(schema)
        ? (schema as Record<string, unknown>)
        : undefined;
    } catch {
      // A validator that cannot describe itself (a transform, a Date, a custom check) describes nothing.
      return undefined;
    }
  }
}

/**
 * Checks the `validate` option of a `@Column` or `@KeyPart`: `undefined`, or
 * a Standard Schema validator (an object or function with a `~standard`
 * property of version 1 and a `validate` function).
 */
function compileValidator(entity: string, property: string, validate: unknown): PropertyValidator | undefined {
  if (validate === undefined) return undefined;
  const standard =
    (typeof validate === 'object' && validate !== null) || typeof validate === 'function'
      ? (validate as { '~standard'?: unknown })['~standard']
      : undefined;
  const props = standard !== null && typeof standard === 'object' ? (standard as Record<string, unknown>) : undefined;
  if (props === undefined || props['version'] !== 1 || typeof props['validate'] !== 'function') {
    throw new MetadataError(
      entity,
      property,
      `validate ${preview(validate)} is not a Standard Schema validator (an object with a '~standard' property of version 1 and a validate function)`,
      'pass a zod, valibot or ArkType schema (or any Standard Schema validator) itself, e.g. validate: z.string().email(), or remove validate',
    );
  }
  return new PropertyValidator(entity, property, validate as StandardValidator);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * A property whose values a `validate` validator checks.
 * @internal
 */
export interface ValidatedProperty {
  readonly property: string;
  readonly kind: 'key' | 'column';
  /** A versioned column: the validator checks the `value` of each version. */
  readonly versioned: boolean;
  readonly validator: PropertyValidator;
}

/**
 * The validated properties of an entity, key parts first, from the `validate`
 * options of its `@KeyPart` and `@Column` declarations. A `@Denormalized`
 * copy cannot have one: it holds whatever its source column holds, which
 * that column's own validator checks.
 * @internal
 */
export function compileValidatedProperties(
  entity: string,
  keyParts: readonly { readonly property?: string | undefined; readonly options: object }[],
  columns: readonly {
    readonly property: string;
    readonly options: { readonly validate?: unknown; readonly versions?: unknown };
  }[],
  copies: readonly string[],
): readonly ValidatedProperty[] {
  const validated: ValidatedProperty[] = [];
  for (const { property, options } of keyParts) {
    if (property === undefined) continue;
    const validator = compileValidator(entity, property, (options as { validate?: unknown }).validate);
    if (validator !== undefined) validated.push(Object.freeze({ property, kind: 'key', versioned: false, validator }));
  }
  for (const { property, options } of columns) {
    const validator = compileValidator(entity, property, options.validate);
    if (validator === undefined) continue;
    if (copies.includes(property)) {
      throw new MetadataError(
        entity,
        property,
        'a @Denormalized copy cannot have a validator: it holds what its source column holds',
        'put validate on the source column, or remove it here',
      );
    }
    validated.push(Object.freeze({ property, kind: 'column', versioned: options.versions !== undefined, validator }));
  }
  return Object.freeze(validated);
}
