import { MetadataError } from '../errors/errors.js';
import { throwRejected, type RejectedDeclaration } from '../metadata/collect-declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { appendOwn } from '../metadata/store.js';

// Compiled standard decorators get a metadata object only if `Symbol.metadata` exists when the class is defined, and
// Node 20 to 24 do not define it. Every decorator imports this module, so it runs before any entity class is defined.
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for('Symbol.metadata');

/** One decorator call, legacy or standard, reduced to what a decorator records. @internal */
export interface DecoratorSite {
  /** The class name, for errors. */
  readonly entity: string;
  /** Where to record: the class (legacy decorators) or the class's decorator metadata object (standard decorators). */
  readonly holder: object;
}

/** One property decorator call. @internal */
export interface PropertySite extends DecoratorSite {
  readonly property: string | symbol;
}

/** The parts of a standard decorator context this module reads. */
interface StandardContext {
  readonly kind: string;
  readonly name?: string | symbol;
  readonly static?: boolean;
  readonly private?: boolean;
  readonly metadata?: unknown;
}

/** Stands in for the class name while a standard field decorator runs; its errors are recorded, never shown. */
const UNKNOWN_CLASS = '(class being defined)';

/**
 * True when a decorator was applied to a class: standard `(class, { kind:
 * 'class' })` or legacy `(class)`. Legacy member decorators get a property key
 * as their second argument, standard ones a context of another kind.
 * @internal
 */
export function isClassCall(args: readonly unknown[]): boolean {
  const [target, second] = args;
  if (isStandardContext(second)) return second.kind === 'class';
  return second === undefined && typeof target === 'function';
}

/**
 * Runs a class decorator in either mode. In standard mode it first reports
 * what the field decorators of the class found wrong, now that the class has a
 * name.
 * @internal
 */
export function decorateClass(
  decorator: string,
  args: readonly unknown[],
  record: (site: DecoratorSite) => void,
): void {
  const [target, context] = args;
  if (!isClassCall(args)) {
    rejectMember(args, `${decorator} goes on the class, not on a property`, `move ${decorator} to the class`);
    return;
  }
  const cls = target as Function;
  if (!isStandardContext(context)) {
    record({ entity: cls.name, holder: cls });
    return;
  }
  const entity = cls.name || (typeof context.name === 'string' ? context.name : '') || '(anonymous class)';
  const holder = metadataOf(context, entity, undefined);
  throwRejected(entity, holder);
  record({ entity, holder });
}

/**
 * Runs a property decorator in either mode, on an instance field (or a
 * standard `accessor` field). A standard field decorator runs before its class
 * exists, so a mistake it finds is recorded on the metadata object and thrown
 * by the class decorator or by `compileEntity()`, naming the class.
 * @internal
 */
export function decorateProperty(
  decorator: string,
  args: readonly unknown[],
  record: (site: PropertySite) => void,
): void {
  const [target, context] = args;
  if (isClassCall(args)) {
    throw new MetadataError(
      (target as Function).name,
      undefined,
      `${decorator} goes on a property, not on the class`,
      `move ${decorator} to the property it maps`,
    );
  }
  if (!isStandardContext(context)) {
    if (typeof target === 'function') {
      throw new MetadataError(
        target.name,
        String(context as string | symbol),
        `${decorator} cannot go on a static property`,
        'put it on an instance property',
      );
    }
    const cls = (target as object).constructor;
    record({ entity: cls.name, holder: cls, property: context as string | symbol });
    return;
  }
  const property = context.name ?? '';
  const holder = metadataOf(context, UNKNOWN_CLASS, String(property));
  const misplaced = misplacedMember(context);
  if (misplaced !== undefined) {
    reject(holder, String(property), `${decorator} cannot go on ${misplaced}`, 'put it on an instance field');
    return;
  }
  try {
    record({ entity: UNKNOWN_CLASS, holder, property });
  } catch (err) {
    if (!(err instanceof MetadataError)) throw err;
    reject(holder, err.property, String(err.details['problem']), String(err.details['fix']));
  }
}

function isStandardContext(value: unknown): value is StandardContext {
  return value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string';
}

/** Why a standard member cannot hold a mapped property; `undefined` when it can. */
function misplacedMember(context: StandardContext): string | undefined {
  if (context.kind !== 'field' && context.kind !== 'accessor') return `a ${context.kind}`;
  if (context.static === true) return 'a static field';
  if (context.private === true) return 'a #private field';
  return undefined;
}

function metadataOf(context: StandardContext, entity: string, property: string | undefined): object {
  const { metadata } = context;
  if (metadata !== null && typeof metadata === 'object') return metadata;
  throw new MetadataError(
    entity,
    property,
    'standard decorators were called without decorator metadata (context.metadata)',
    'compile with TypeScript 5.2 or later (or another compiler that supports decorator metadata), or use legacy ' +
      'decorators: "experimentalDecorators": true',
  );
}

/** A class decorator used on a member: in standard mode the class is not known yet, so record it. */
function rejectMember(args: readonly unknown[], problem: string, fix: string): void {
  const [target, context] = args;
  if (isStandardContext(context)) {
    const property = String(context.name ?? '');
    reject(metadataOf(context, UNKNOWN_CLASS, property), property, problem, fix);
    return;
  }
  const cls = typeof target === 'function' ? target : (target as object).constructor;
  throw new MetadataError(cls.name, String(context as string | symbol), problem, fix);
}

function reject(holder: object, property: string | undefined, problem: string, fix: string): void {
  appendOwn<RejectedDeclaration>(MetadataKeys.rejected, holder, { property, problem, fix });
}
