/**
 * Deterministic sample data for the latest-events scenario: events at
 * irregular times over the 30 days before {@link NOW}, in shuffled order.
 */

/** The scenario's "now" (fixed, so runs are reproducible). */
export const NOW = new Date('2024-06-24T12:00:00.000Z');

const DAYS = 30;

/** A small seeded PRNG (mulberry32) returning floats in [0, 1). @example `const rand = prng(42); rand();` */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `perCustomer` distinct event times per customer over the last 30 days
 * (one per time slot, jittered), returned in a shuffled write order.
 *
 * @example
 * ```ts
 * sampleEvents(['c1', 'c2'], 100); // [{ customerId: 'c2', at: Date, type: 'purchase', amount: 12.5 }, ...]
 * ```
 */
export function sampleEvents(
  customers: readonly string[],
  perCustomer: number,
  seed = 4,
): { customerId: string; at: Date; type: string; amount: number }[] {
  const rand = prng(seed);
  const slot = Math.floor((DAYS * 86_400_000) / perCustomer);
  const start = NOW.getTime() - DAYS * 86_400_000;
  const types = ['login', 'view', 'purchase', 'refund'];
  const events = customers.flatMap((customerId) =>
    Array.from({ length: perCustomer }, (_, k) => ({
      customerId,
      at: new Date(start + k * slot + Math.floor(rand() * slot)),
      type: types[Math.floor(rand() * types.length)] as string,
      amount: Math.round(rand() * 10_000) / 100,
    })),
  );
  for (let i = events.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [events[i], events[j]] = [events[j] as (typeof events)[number], events[i] as (typeof events)[number]];
  }
  return events;
}
