/**
 * `record[name]` when it is an own property, else a new value stored as one
 * (even for `__proto__`): names read from the wire like `constructor` or
 * `__proto__` never reach `Object.prototype`.
 */
export function ownEntry<T>(record: Record<string, T>, name: string, create: () => T): T {
  if (Object.hasOwn(record, name)) return record[name] as T;
  const value = create();
  if (name === '__proto__')
    Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
  return value;
}
