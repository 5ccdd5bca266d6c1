/**
 * The classes being compiled right now, outermost first. Compiling an entity
 * compiles the sources of its `@Denormalized` columns, so a class met again on
 * this stack closes a denormalization cycle.
 * @internal
 */
const inProgress: Function[] = [];

/**
 * Runs `build` with `target` on the compile stack.
 *
 * @example
 * ```ts
 * const schema = whileCompiling(Reading, () => buildSchema(Reading));
 * ```
 * @internal
 */
export function whileCompiling<T>(target: Function, build: () => T): T {
  inProgress.push(target);
  try {
    return build();
  } finally {
    inProgress.pop();
  }
}

/**
 * The cycle `target → … → target` when `target` is being compiled, else `undefined`.
 *
 * @example
 * ```ts
 * cycleThrough(Reading); // [Reading, Sensor] while Sensor (a source of Reading) copies from Reading
 * ```
 * @internal
 */
export function cycleThrough(target: Function): Function[] | undefined {
  const at = inProgress.indexOf(target);
  return at < 0 ? undefined : inProgress.slice(at);
}
