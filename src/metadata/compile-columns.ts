import { createValueCodec } from '../codec/value-codecs.js';
import { MetadataError } from '../errors/errors.js';
import type { ColumnDeclaration } from '../model/declarations.js';
import {
  withCompiled,
  type ColumnSchema,
  type FamilySchema,
  COMPILED,
  type ColumnPlan,
  type DenormalizedSchema,
} from './entity-schema.js';
import { checkDesignType } from './design-type.js';
import { compileLayout } from './compile-embedded.js';
import { inheritedName } from './reserved-names.js';
import { checkAggregateColumn } from './compile-aggregate.js';

/**
 * Validates column declarations against the declared families and key parts,
 * and builds each column's codec and the qualifiers (as text and bytes) of its
 * cells.
 * @internal
 */
export function compileColumns(
  entity: string,
  target: Function,
  declarations: readonly ColumnDeclaration[],
  families: readonly FamilySchema[],
  keyProperties: readonly string[],
): ColumnSchema[] {
  const familyNames = new Set(families.map((f) => f.name));
  const aggregates = new Map(families.map((f) => [f.name, f.aggregate]));
  const cells = new Map<string, string>();
  return declarations.map(({ property, options }) => {
    if (keyProperties.includes(property)) {
      throw new MetadataError(
        entity,
        property,
        'is both a key part and a column',
        'keep it in the key (it is decoded from the row key on reads) and remove @Column',
      );
    }
    if (typeof options.family !== 'string' || !familyNames.has(options.family)) {
      const declared = familyNames.size === 0 ? 'none' : [...familyNames].join(', ');
      throw new MetadataError(
        entity,
        property,
        `column uses family ${JSON.stringify(options.family)} which is not declared (declared: ${declared})`,
        `add @Family('${String(options.family)}') to ${entity}, or use a declared family`,
      );
    }
    const aggregate = aggregates.get(options.family);
    if (aggregate !== undefined) checkAggregateColumn(entity, property, options, aggregate);
    const qualifier = options.qualifier ?? property;
    if (typeof qualifier !== 'string' || qualifier === '') {
      throw new MetadataError(
        entity,
        property,
        `qualifier ${JSON.stringify(qualifier)} must be a non-empty string`,
        'omit qualifier to use the property name',
      );
    }
    const { layout, fields } = compileLayout(entity, property, options, qualifier);
    const qualifiers = fields?.map((f) => f.qualifier) ?? [qualifier];
    for (const q of qualifiers) {
      const cell = `${options.family}:${q}`;
      const owner = cells.get(cell);
      if (owner !== undefined) {
        throw new MetadataError(
          entity,
          property,
          `maps to column ${cell}, which ${owner} already uses`,
          'give one of them another qualifier (or fieldPrefix)',
        );
      }
      cells.set(cell, property);
    }
    const versions = options.versions ?? 1;
    if (!Number.isInteger(versions) || versions < 1) {
      throw new MetadataError(
        entity,
        property,
        `versions ${String(options.versions)} must be a positive integer`,
        'use versions: 1 or more, or omit it for the latest value only',
      );
    }
    const codec = createValueCodec(entity, property, options.type);
    if (options.versions === undefined) checkDesignType(entity, target, property, options.type);
    const column = {
      property,
      family: options.family,
      qualifier,
      type: codec.type,
      classType: typeof options.type === 'function' ? options.type : undefined,
      codec,
      versions,
      versioned: options.versions !== undefined,
      layout,
      fields,
      ...(aggregate === undefined ? {} : { aggregate }),
    };
    return Object.freeze(
      withCompiled(column, {
        qualifiers: Object.freeze(qualifiers),
        qualifierBytes: Object.freeze(qualifiers.map((q) => Buffer.from(q, 'utf8'))),
      }),
    );
  });
}

/**
 * The qualifiers a column's value occupies: one per field for a `flatten`
 * column, else the column's own qualifier.
 * @internal
 */
export function cellQualifiers(column: ColumnSchema): readonly string[] {
  return column[COMPILED].qualifiers;
}

/**
 * A column as `hydrate` reads it for an entity with these families and
 * copies (the compile pass plans every column of its own entity).
 * @internal
 */
export function planColumn(
  entity: { readonly families: readonly FamilySchema[]; readonly denormalized: readonly DenormalizedSchema[] },
  column: ColumnSchema,
): ColumnPlan {
  return {
    column,
    gc: entity.families.find((f) => f.name === column.family)?.gc,
    inherited:
      inheritedName(column.family) ||
      inheritedName(column.qualifier) ||
      column[COMPILED].qualifiers.some(inheritedName),
    copy: entity.denormalized.some((copy) => copy.property === column.property),
  };
}

/**
 * One stored version of a cell.
 *
 * @example
 * ```ts
 * const latest: CellVersion<number> = reading.temperature![0]; // { value: 21.5, timestamp: Date }
 * ```
 */
export interface CellVersion<T> {
  /** The decoded cell value. */
  readonly value: T;
  /** Cell timestamp (millisecond granularity). */
  readonly timestamp: Date;
}

/**
 * Type of a property declared with `@Column({ versions: n })`: up to n
 * versions, newest first.
 *
 * @example
 * ```ts
 * @Column({ family: 'm', type: 'float', versions: 5 }) temperature?: Versioned<number>;
 * ```
 */
export type Versioned<T> = CellVersion<T>[];
