import { MetadataError } from '../errors/errors.js';
import { RESALT_FAMILY } from '../metadata/resalt-mark.js';

const TABLE_ID = /^[_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49}$/;
const FAMILY_NAME = /^[-_.a-zA-Z0-9]{1,64}$/;
const SEPARATOR = /^[!-/:-@[-`{-~]$/;

/** Checks a Bigtable table id. @internal */
export function assertTableId(entity: string, table: unknown): asserts table is string {
  if (typeof table !== 'string' || !TABLE_ID.test(table)) {
    throw new MetadataError(
      entity,
      undefined,
      `table ${JSON.stringify(table)} is not a valid Bigtable table id`,
      'use 1-50 characters from [-_.a-zA-Z0-9], not starting with - or .',
    );
  }
}

/** Checks a column family name. @internal */
export function assertFamilyName(entity: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || !FAMILY_NAME.test(name)) {
    throw new MetadataError(
      entity,
      undefined,
      `family name ${JSON.stringify(name)} is not valid`,
      'use 1-64 characters from [-_.a-zA-Z0-9]',
    );
  }
}

/** Refuses the family the library keeps the move marks of a re-salt in. @internal */
export function assertNotResaltFamily(entity: string, name: string): void {
  if (name !== RESALT_FAMILY) return;
  throw new MetadataError(
    entity,
    undefined,
    `family name "${RESALT_FAMILY}" is reserved: it holds the move marks while an entity is re-salted`,
    'choose another family name',
  );
}

/** Checks a key separator: one ASCII punctuation character other than `%`. @internal */
export function assertSeparator(entity: string, separator: unknown): asserts separator is string {
  if (typeof separator !== 'string' || !SEPARATOR.test(separator) || separator === '%') {
    throw new MetadataError(
      entity,
      undefined,
      `separator ${JSON.stringify(separator)} is not allowed`,
      "use one ASCII punctuation character other than '%', such as '#' (the default), '|' or '-'",
    );
  }
}

/** Checks a non-negative integer position. @internal */
export function assertPosition(
  entity: string,
  property: string | undefined,
  position: unknown,
): asserts position is number {
  if (typeof position !== 'number' || !Number.isInteger(position) || position < 0) {
    throw new MetadataError(
      entity,
      property,
      `key position ${String(position)} is not a non-negative integer`,
      'number key parts 0, 1, 2, ... in key order',
    );
  }
}
