/**
 * The items shard `index` of `count` takes: `items` cut into `count` contiguous groups whose sizes
 * differ by at most one, so every item belongs to exactly one shard (with fewer items than shards,
 * some shards take none). Order is kept.
 * @internal
 */
export function shardPart<T>(items: readonly T[], index: number, count: number): T[] {
  return items.filter((_, i) => Math.floor((i * count) / items.length) === index);
}
