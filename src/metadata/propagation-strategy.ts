import type { KeyPlan, PropagationStrategy } from './entity-schema.js';

/**
 * How `propagate` finds the rows copying one source row. `prefix` when the
 * dependent's leading key parts are exactly the properties the source key
 * maps to (any literal between them is constant): a source change then
 * touches one contiguous key prefix, once per salt bucket unless the salt
 * hashes only those parts. Otherwise `full-scan`, with the reason and the fix.
 * @internal
 */
export function propagationStrategy(
  entity: string,
  key: KeyPlan,
  sourceName: string,
  mapped: readonly string[],
): PropagationStrategy {
  const salt = key.salt;
  const allBuckets = salt === undefined ? 1 : salt.allBuckets.length;
  const wanted = mapped.join(', ');
  const columns = mapped.filter((p) => !key.properties.includes(p));
  if (columns.length > 0) {
    const reason = `${entity}.${columns[0]} is a column, not a key part: propagating a ${sourceName} change would scan the whole table; make ${wanted} the leading key part${mapped.length > 1 ? 's' : ''} of ${entity} or pass { allowFullScan: true }`;
    return { kind: 'full-scan', keyParts: [], buckets: allBuckets, reason };
  }
  const leading = key.properties.slice(0, mapped.length);
  if (!leading.every((p) => mapped.includes(p))) {
    const reason = `${entity}'s key starts with ${leading.join(', ')}, not ${wanted}: propagation would scan the whole table; put ${wanted} first or pass { allowFullScan: true }`;
    return { kind: 'full-scan', keyParts: [], buckets: allBuckets, reason };
  }
  if (salt === undefined) {
    return {
      kind: 'prefix',
      keyParts: leading,
      buckets: 1,
      reason: `${entity}'s key starts with ${leading.join(', ')}: a ${sourceName} change rewrites one key prefix`,
    };
  }
  const unsalted =
    salt.since === undefined ? '' : `, plus the unsalted rows written before ${salt.since.from.toISOString()}`;
  if (salt.on.every((p) => leading.includes(p))) {
    return {
      kind: 'prefix',
      keyParts: leading,
      buckets: 1,
      reason: `${entity}'s key starts with ${leading.join(', ')} and its salt hashes only ${salt.on.join(', ')}: a ${sourceName} change rewrites one key prefix in one bucket${unsalted}`,
    };
  }
  const extra = salt.on.filter((p) => !leading.includes(p)).join(', ');
  const reason = `${entity}'s key starts with ${leading.join(', ')}, but its salt also hashes ${extra}: a ${sourceName} change rewrites one key prefix in each of the ${allBuckets} buckets${unsalted}`;
  return { kind: 'prefix', keyParts: leading, buckets: allBuckets, reason };
}
