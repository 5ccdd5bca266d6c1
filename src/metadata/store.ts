import 'reflect-metadata';

/**
 * Per-class metadata storage. Each class holds only its own declarations
 * (read with `getOwnMetadata`); appending copies the class's own list first so
 * a subclass never mutates its parent's.
 * @internal
 */
export function getOwnList<T>(key: symbol, target: object): readonly T[] {
  return (Reflect.getOwnMetadata(key, target) as T[] | undefined) ?? [];
}

/** Appends to the class's own list (copy-on-write). @internal */
export function appendOwn<T>(key: symbol, target: object, item: T): void {
  Reflect.defineMetadata(key, [...getOwnList<T>(key, target), item], target);
}

/** Reads a single own value. @internal */
export function getOwnValue<T>(key: symbol, target: object): T | undefined {
  return Reflect.getOwnMetadata(key, target) as T | undefined;
}

/** Sets a single own value. @internal */
export function setOwnValue<T>(key: symbol, target: object, value: T): void {
  Reflect.defineMetadata(key, value, target);
}

/**
 * The class chain from the root ancestor down to `ctor` (excluding `Object`/`Function.prototype`).
 * @internal
 */
export function classChain(ctor: Function): Function[] {
  const chain: Function[] = [];
  for (let c: unknown = ctor; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.unshift(c as Function);
  }
  return chain;
}
