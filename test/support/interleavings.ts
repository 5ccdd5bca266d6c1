import { AsyncLocalStorage } from 'node:async_hooks';
import type { BigtableDriver, CallOptions, ReadRowsRequest, RowData } from '../../src/model/driver.js';
import { fromAsyncIterable } from '../../src/stream/async-iterable.js';
import type { BatchStream } from '../../src/stream/batch-stream.js';

/**
 * A deterministic scheduler for single-row protocols: each actor runs until it calls the driver, then waits
 * there until the schedule picks it; the picked call runs alone, atomically, on the inner driver. Running
 * every schedule ({@link everySchedule}) explores every interleaving of the actors' driver calls.
 */
/** One for every scheduler: each live AsyncLocalStorage slows every later async step down. */
const currentActor = new AsyncLocalStorage<string>();

export class StepScheduler {
  readonly #actor = currentActor;
  readonly #waiting = new Map<string, { label: string; release: () => void }>();
  readonly #running = new Set<string>();
  /** The calls in the order they ran, as `actor:label`. */
  readonly trace: string[] = [];

  /** `inner`, with every data call a step of the schedule (admin calls pass straight through). */
  gate(inner: BigtableDriver): BigtableDriver {
    const step = (label: string): Promise<void> => this.#step(label);
    const stepped = new Set(['mutateRow', 'mutateRows', 'checkAndMutate', 'increment']);
    return new Proxy(inner, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== 'function') return value;
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        if (property === 'readRows')
          return (request: ReadRowsRequest, call?: CallOptions): BatchStream<RowData> => {
            async function* atomically(): AsyncGenerator<RowData> {
              await step('readRows');
              const rows: RowData[] = [];
              for await (const batch of method(request, call) as BatchStream<RowData>) rows.push(...batch);
              yield* rows;
            }
            return fromAsyncIterable(atomically(), () => undefined);
          };
        if (typeof property === 'string' && stepped.has(property))
          return async (...args: unknown[]) => {
            await step(property);
            return method(...args);
          };
        return method;
      },
    });
  }

  #step(label: string): Promise<void> {
    const actor = this.#actor.getStore();
    if (actor === undefined) return Promise.resolve();
    this.#running.delete(actor);
    return new Promise((resolve) =>
      this.#waiting.set(actor, {
        label,
        release: () => {
          this.#running.add(actor);
          this.trace.push(`${actor}:${label}`);
          resolve();
        },
      }),
    );
  }

  /**
   * Runs the actors under one schedule: at the i-th step the waiting actor at `choices[i]` (in name order;
   * 0 past the end of `choices`) goes. Resolves the number of choices each step had, and each actor's
   * result (or its error's message).
   */
  async run(
    actors: Readonly<Record<string, () => Promise<unknown>>>,
    choices: readonly number[],
  ): Promise<{ widths: number[]; results: Record<string, unknown> }> {
    const results: Record<string, unknown> = {};
    const settled = Object.entries(actors).map(([name, act]) => {
      this.#running.add(name);
      return this.#actor
        .run(name, act)
        .then(
          (value) => (results[name] = value),
          (err: unknown) => (results[name] = { error: err instanceof Error ? err.message : String(err) }),
        )
        .finally(() => this.#running.delete(name));
    });
    const widths: number[] = [];
    for (;;) {
      await this.#quiet();
      if (this.#waiting.size === 0) break;
      const names = [...this.#waiting.keys()].sort();
      const pick = choices[widths.length] ?? 0;
      widths.push(names.length);
      const name = names[pick] as string;
      const waiting = this.#waiting.get(name) as { release: () => void };
      this.#waiting.delete(name);
      waiting.release();
    }
    await Promise.all(settled);
    return { widths, results };
  }

  /** Waits until every actor waits at a step or has finished (the fake driver has no timers in its calls). */
  async #quiet(): Promise<void> {
    for (let i = 0; this.#running.size > 0; i++) {
      if (i > 10_000) throw new Error(`actors ${[...this.#running].join(', ')} neither finished nor called the driver`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * Runs `once(choices)` for every schedule, depth first: each run reports how many choices each of its steps
 * had, and the next schedule changes the deepest step that has a choice left. Resolves the number of runs.
 */
export async function everySchedule(once: (choices: readonly number[]) => Promise<number[]>): Promise<number> {
  let choices: number[] = [];
  for (let runs = 1; ; runs++) {
    const widths = await once(choices);
    const full = widths.map((_, i) => choices[i] ?? 0);
    let depth = full.length - 1;
    while (depth >= 0 && (full[depth] as number) + 1 >= (widths[depth] as number)) depth--;
    if (depth < 0) return runs;
    choices = [...full.slice(0, depth), (full[depth] as number) + 1];
  }
}

/** Every order of `items`. */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/**
 * The cases of an exhaustive interleaving test this run enumerates, from the
 * environment variable `INTERLEAVINGS`: every case with `full` (the soak tier,
 * `npm run test:soak`, run on every CI run), the first `quick` ones when it is
 * unset (`npm test`), so list the cheapest first. The soak tier finds the
 * test files to run again by this function's name (`scripts/vitest.soak.config.ts`).
 *
 * @example
 * ```ts
 * it.each(interleavingCases([['save', 'update', 'delete'], ['resalt', 'save', 'delete']]))('%s, %s and %s', run);
 * ```
 */
export function interleavingCases<T>(all: readonly T[], quick = 1): T[] {
  const setting = process.env['INTERLEAVINGS']?.trim() ?? '';
  if (setting === 'full') return [...all];
  if (setting !== '') throw new Error(`INTERLEAVINGS must be unset or "full", not ${JSON.stringify(setting)}`);
  return all.slice(0, quick);
}
