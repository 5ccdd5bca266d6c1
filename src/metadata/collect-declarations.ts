import { MetadataError } from '../errors/errors.js';
import type {
  ColumnDeclaration,
  DenormalizedDeclaration,
  EntityOptions,
  FamilyDeclaration,
  KeyPartDeclaration,
  SaltOptions,
} from '../model/declarations.js';
import { MetadataKeys } from './keys.js';
import { classChain, getOwnList, getOwnValue } from './store.js';

/** Every declaration that applies to a class, its ancestors' included. */
interface CollectedDeclarations {
  entity: EntityOptions | undefined;
  salt: SaltOptions | undefined;
  keyParts: KeyPartDeclaration[];
  families: FamilyDeclaration[];
  columns: ColumnDeclaration[];
  cellTimestamps: string[];
  denormalized: DenormalizedDeclaration[];
  /** Declarations repeated on one class (same property or family twice), for validation. */
  duplicates: { kind: 'column' | 'key part' | 'family' | 'cell timestamp' | '@Denormalized'; name: string }[];
}

/**
 * A mistake a standard (TC39) field decorator found while its class was still
 * being defined, so it could not name the class yet.
 * @internal
 */
export interface RejectedDeclaration {
  property: string | undefined;
  problem: string;
  fix: string;
}

/**
 * Throws the first mistake recorded on `holder` (a class, or the decorator
 * metadata object of class `entity`), now that the class name is known.
 * @internal
 */
export function throwRejected(entity: string, holder: object): void {
  const [first] = getOwnList<RejectedDeclaration>(MetadataKeys.rejected, holder);
  if (first !== undefined) throw new MetadataError(entity, first.property, first.problem, first.fix);
}

/**
 * Walks the class chain root → leaf. A subclass adds to its parent's
 * declarations and overrides them by property (or family name); single-valued
 * options (`@Entity`, `@Salt`) come from the nearest class that declares them.
 * Class decorators run bottom-up, so a class's own families are reversed back
 * into source order.
 * @internal
 */
export function collectDeclarations(ctor: Function): CollectedDeclarations {
  const result: CollectedDeclarations = {
    entity: undefined,
    salt: undefined,
    keyParts: [],
    families: [],
    columns: [],
    cellTimestamps: [],
    denormalized: [],
    duplicates: [],
  };
  const keyParts = new Map<string, KeyPartDeclaration>();
  const families = new Map<string, FamilyDeclaration>();
  const columns = new Map<string, ColumnDeclaration>();
  const denormalized = new Map<string, DenormalizedDeclaration>();
  const stamps = new Set<string>();
  for (const cls of classChain(ctor)) {
    throwRejected(cls.name || '(anonymous class)', cls);
    result.entity = getOwnValue<EntityOptions>(MetadataKeys.entity, cls) ?? result.entity;
    result.salt = getOwnValue<SaltOptions>(MetadataKeys.salt, cls) ?? result.salt;
    mergeOwn(getOwnList<KeyPartDeclaration>(MetadataKeys.keyParts, cls), keyParts, keyPartId, 'key part', result);
    mergeOwn(
      [...getOwnList<FamilyDeclaration>(MetadataKeys.families, cls)].reverse(),
      families,
      (f) => f.name,
      'family',
      result,
    );
    mergeOwn(getOwnList<ColumnDeclaration>(MetadataKeys.columns, cls), columns, (c) => c.property, 'column', result);
    mergeOwn(
      getOwnList<DenormalizedDeclaration>(MetadataKeys.denormalized, cls),
      denormalized,
      (c) => c.property,
      '@Denormalized',
      result,
    );
    const ownStamps = getOwnList<string>(MetadataKeys.cellTimestamp, cls);
    if (ownStamps.length > 0) stamps.clear();
    for (const s of ownStamps) {
      if (stamps.has(s)) result.duplicates.push({ kind: 'cell timestamp', name: s });
      stamps.add(s);
    }
  }
  result.keyParts = [...keyParts.values()];
  result.families = [...families.values()];
  result.columns = [...columns.values()];
  result.cellTimestamps = [...stamps];
  result.denormalized = [...denormalized.values()];
  return result;
}

function keyPartId(k: KeyPartDeclaration): string {
  return k.property ?? `literal@${k.position}`;
}

function mergeOwn<T>(
  own: readonly T[],
  into: Map<string, T>,
  id: (item: T) => string,
  kind: CollectedDeclarations['duplicates'][number]['kind'],
  result: CollectedDeclarations,
): void {
  const seen = new Set<string>();
  for (const item of own) {
    const name = id(item);
    if (seen.has(name)) result.duplicates.push({ kind, name });
    seen.add(name);
    into.set(name, item);
  }
}
