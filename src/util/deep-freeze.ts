/**
 * Recursively freezes plain objects and arrays, including the children of
 * objects that are already frozen (functions, class constructors, Dates,
 * Maps, Sets and Buffers are left alone). Returns its argument.
 *
 * @internal
 */
export function deepFreeze<T>(value: T, seen: WeakSet<object> = new WeakSet()): T {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof Map || value instanceof Set) return value;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const child = (value as Record<PropertyKey, unknown>)[key];
    if (child !== null && typeof child === 'object') deepFreeze(child, seen);
  }
  return Object.freeze(value);
}
