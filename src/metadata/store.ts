import 'reflect-metadata';

/**
 * Per-class metadata storage, for both decorator modes.
 *
 * Legacy decorators (`experimentalDecorators`) record on the class itself, with
 * reflect-metadata. Standard (TC39) decorators have no class yet when a field
 * is decorated, so they record on the class's decorator metadata object
 * (`context.metadata`), which the compiled class definition then attaches to
 * the class as `Symbol.metadata`. Reads of a class merge both.
 *
 * Everything is own-only: a subclass's metadata object inherits from its
 * parent's through the prototype chain, and a subclass without decorators
 * inherits its parent's `Symbol.metadata`, so a read checks `Object.hasOwn` at
 * both steps. Appending copies the own list first so a subclass never mutates
 * its parent's.
 * @internal
 */
export function getOwnList<T>(key: symbol, holder: object): readonly T[] {
  if (typeof holder !== 'function') return ownProperty<T[]>(holder, key) ?? [];
  const legacy = (Reflect.getOwnMetadata(key, holder) as T[] | undefined) ?? [];
  const metadata = ownDecoratorMetadata(holder);
  const standard = metadata === undefined ? undefined : ownProperty<T[]>(metadata, key);
  return standard === undefined ? legacy : [...legacy, ...standard];
}

/**
 * Appends to the own list of `holder`: a class, or a decorator metadata object
 * (copy-on-write).
 * @internal
 */
export function appendOwn<T>(key: symbol, holder: object, item: T): void {
  setOwnValue(key, holder, [...getOwnList<T>(key, holder), item]);
}

/** Reads a single own value of a class or a decorator metadata object. @internal */
export function getOwnValue<T>(key: symbol, holder: object): T | undefined {
  if (typeof holder !== 'function') return ownProperty<T>(holder, key);
  const legacy = Reflect.getOwnMetadata(key, holder) as T | undefined;
  if (legacy !== undefined) return legacy;
  const metadata = ownDecoratorMetadata(holder);
  return metadata === undefined ? undefined : ownProperty<T>(metadata, key);
}

/** Sets a single own value on a class or a decorator metadata object. @internal */
export function setOwnValue<T>(key: symbol, holder: object, value: T): void {
  if (typeof holder === 'function') {
    Reflect.defineMetadata(key, value, holder);
    return;
  }
  Object.defineProperty(holder, key, { value, writable: true, configurable: true, enumerable: false });
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

/** The metadata object standard decorators filled for this class itself, not one inherited from a parent. */
function ownDecoratorMetadata(cls: Function): object | undefined {
  const symbol = (Symbol as { metadata?: symbol }).metadata;
  if (symbol === undefined) return undefined;
  const metadata = ownProperty<unknown>(cls, symbol);
  return metadata !== null && typeof metadata === 'object' ? metadata : undefined;
}

function ownProperty<T>(holder: object, key: symbol): T | undefined {
  return Object.hasOwn(holder, key) ? ((holder as Record<symbol, unknown>)[key] as T) : undefined;
}
