/**
 * A binary min-heap ordered by `compare` (negative: `a` comes first).
 * @internal
 *
 * @example
 * ```ts
 * const heap = new MinHeap<number>((a, b) => a - b);
 * heap.push(3); heap.push(1);
 * heap.pop(); // 1
 * ```
 */
export class MinHeap<T> {
  readonly #items: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  /** Number of items held. */
  get size(): number {
    return this.#items.length;
  }

  /** Adds an item in O(log n). */
  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let child = items.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.#before(child, parent)) break;
      this.#swap(child, parent);
      child = parent;
    }
  }

  /** The smallest item without removing it, or `undefined` when empty. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Restores the order after the smallest item's priority grew (e.g. its source moved to its next item), in O(log n). */
  updateTop(): void {
    this.#siftDown();
  }

  /** Removes and returns the smallest item, or `undefined` when empty, in O(log n). */
  pop(): T | undefined {
    const items = this.#items;
    if (items.length <= 1) return items.pop();
    const top = items[0] as T;
    items[0] = items.pop() as T;
    this.#siftDown();
    return top;
  }

  #siftDown(): void {
    const items = this.#items;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < items.length && this.#before(left, smallest)) smallest = left;
      if (right < items.length && this.#before(right, smallest)) smallest = right;
      if (smallest === parent) return;
      this.#swap(parent, smallest);
      parent = smallest;
    }
  }

  #before(i: number, j: number): boolean {
    return this.#compare(this.#items[i] as T, this.#items[j] as T) < 0;
  }

  #swap(i: number, j: number): void {
    const items = this.#items;
    const held = items[i] as T;
    items[i] = items[j] as T;
    items[j] = held;
  }
}
