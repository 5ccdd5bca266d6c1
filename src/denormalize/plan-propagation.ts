import { MetadataError, ValidationError } from '../errors/errors.js';
import type { Constructor } from '../model/declarations.js';
import type { EntitySchema, DenormalizedSchema, PropagationStrategy } from '../metadata/entity-schema.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { planScan } from '../scan/plan-scan.js';
import type { ScanPlan } from '../scan/scan-plan.js';
import { deepFreeze } from '../util/deep-freeze.js';

/**
 * Which source entity of `schema`'s copies `source` is: the class it is an
 * instance of, or, for a plain object, the only source class there is.
 *
 * @example
 * ```ts
 * resolveSourceClass(compileEntity(Reading), { id: 's1', location: 'lab' }); // Sensor
 * ```
 * @internal
 */
function resolveSourceClass(schema: EntitySchema, source: unknown): Constructor {
  const classes = [...new Set(schema.denormalized.map((d) => d.source))];
  const names = classes.map((c) => c.name).join(', ');
  if (classes.length === 0) {
    throw new ValidationError(
      `${schema.name}: has no @Denormalized columns, so there is nothing to propagate. Fix: declare @Denormalized on the copied columns`,
      { entity: schema.name },
    );
  }
  if (source === null || typeof source !== 'object' || Array.isArray(source)) {
    throw new ValidationError(
      `${schema.name}: propagate() needs the changed source entity (${names}), or an object with its key. Fix: pass e.g. the ${classes[0]?.name} you just saved`,
      { entity: schema.name },
    );
  }
  const match = classes.find((c) => source instanceof c);
  if (match !== undefined) return match;
  if (classes.length === 1) return classes[0] as Constructor;
  throw new ValidationError(
    `${schema.name}: copies come from ${names}, and a plain object does not say which. Fix: pass an instance of the source class`,
    { entity: schema.name },
  );
}

/**
 * What `propagate(source)` will read: plain data, for inspection and tests.
 *
 * @example
 * ```ts
 * repo.planPropagation(sensor).groups[0].scan.sources.length; // 1 for a sensorId-first, unsalted key
 * ```
 */
export interface PropagationPlan {
  /** Name of the dependent entity class (the one holding the copies). */
  readonly entity: string;
  /** Name of the source entity class. */
  readonly sourceName: string;
  /** One group per distinct key mapping among the copies of the source class: which copies, the source key values a dependent row must hold, and how those rows are found and read. */
  readonly groups: readonly {
    /** The copies rewritten, by dependent property. */
    readonly copies: readonly DenormalizedSchema[];
    /** Dependent property → the source key value a row must hold. */
    readonly match: Readonly<Record<string, unknown>>;
    /** How the dependent rows are found: one key prefix, or a full scan. */
    readonly strategy: PropagationStrategy;
    /** Ranges (one per salt bucket read) and filter: the copies plus one stripped cell per column, so rows missing a copy are seen too. */
    readonly scan: ScanPlan;
  }[];
}

/**
 * Plans a propagation without reading anything: the copies of `source`'s
 * class, grouped by key mapping, and for each the key prefix to scan (per
 * salt bucket when needed). Only `source`'s key is used: the values come
 * from the stored source row when the propagation runs. A `full-scan` layout
 * needs `allowFullScan` (`MetadataError` with the strategy's reason otherwise).
 *
 */
export function planPropagation<T>(
  schema: EntitySchema<T>,
  source: object,
  options: { allowFullScan?: boolean } = {},
  nowMicros = Date.now() * 1000,
): PropagationPlan {
  const sourceClass = resolveSourceClass(schema, source);
  const record = source as Record<string, unknown>;
  const copies = schema.denormalized.filter((d) => d.source === sourceClass);
  const sourceName = copies[0]?.sourceName ?? sourceClass.name;
  const byMapping = new Map<string, DenormalizedSchema[]>();
  for (const d of copies) {
    const mapping = JSON.stringify(d.key);
    byMapping.set(mapping, [...(byMapping.get(mapping) ?? []), d]);
  }
  const groups = [...byMapping.values()].map((group) =>
    planGroup(schema, record, group, options.allowFullScan === true, nowMicros),
  );
  return deepFreeze({ entity: schema.name, sourceName, groups });
}

function planGroup(
  schema: EntitySchema,
  source: Record<string, unknown>,
  copies: DenormalizedSchema[],
  allowFullScan: boolean,
  nowMicros: number,
): PropagationPlan['groups'][number] {
  const first = copies[0] as DenormalizedSchema;
  const match: Record<string, unknown> = {};
  for (const pair of first.key) {
    const value = source[pair.source];
    if (value === undefined || value === null) {
      throw new ValidationError(
        `${schema.name}: the ${first.sourceName} passed to propagate() has no ${pair.source} (${preview(value)}), a key part that finds the copies. Fix: pass the whole ${first.sourceName} key`,
        { entity: schema.name, source: first.sourceName, property: pair.source },
      );
    }
    match[pair.dependent] = value;
  }
  const { strategy } = first;
  // A key design that needs a full scan is the server's, not the request's: a MetadataError (HTTP 500), which lint reports ahead.
  if (strategy.kind === 'full-scan' && !allowFullScan) {
    const [problem, fix] = splitReason(strategy.reason);
    throw new MetadataError(schema.name, first.property, problem, fix);
  }
  const mappedColumns = first.key.map((p) => p.dependent).filter((p) => !schema.key.properties.includes(p));
  const where = strategy.kind === 'prefix' ? match : {};
  const select = [...copies.map((d) => d.property), ...mappedColumns];
  const plan = planScan(schema as EntitySchema<Record<string, unknown>>, { where, select, order: 'none' }, nowMicros);
  const filter = {
    kind: 'interleave',
    filters: [plan.filter, { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] }],
  } as const;
  return { copies, match, strategy, scan: { ...plan, filter } };
}

/** A strategy's reason is "problem; fix": the two halves of a MetadataError. */
function splitReason(reason: string): [string, string] {
  const at = reason.lastIndexOf('; ');
  return at < 0 ? [reason, 'pass { allowFullScan: true }'] : [reason.slice(0, at), reason.slice(at + 2)];
}
