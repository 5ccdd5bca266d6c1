/** One tracked prefix: its counts since it entered, and what it may have inherited (the Space-Saving error). */
interface Candidate {
  rows: number;
  bytes: number;
  rowsError: number;
  bytesError: number;
}

/**
 * The heaviest keys of a stream in bounded memory: the Space-Saving algorithm (Metwally, Agrawal and El
 * Abbadi, 2005) over at most `capacity` candidates. A key not tracked replaces the one with the fewest
 * rows and inherits its counts as an error bound, so every reported count is at least the true one and
 * overestimates it by at most its `rowsError`, itself at most rows seen / `capacity`; any key with more
 * rows than that is reported. While no more than `capacity` keys were seen, every count is exact.
 * Each row costs O(1): candidates sit in sets by row count, with the smallest count kept.
 * @internal
 */
export class TopPrefixes {
  readonly #capacity: number;
  readonly #candidates = new Map<string, Candidate>();
  readonly #byRows = new Map<number, Set<string>>();
  #minRows = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Counts one row of `prefix` with its size. */
  add(prefix: string, bytes: number): void {
    const known = this.#candidates.get(prefix);
    if (known !== undefined) {
      this.#move(prefix, known.rows, known.rows + 1);
      known.rows++;
      known.bytes += bytes;
      return;
    }
    if (this.#candidates.size < this.#capacity) {
      this.#candidates.set(prefix, { rows: 1, bytes, rowsError: 0, bytesError: 0 });
      this.#place(prefix, 1);
      this.#minRows = 1;
      return;
    }
    const fewest = this.#byRows.get(this.#minRows) as Set<string>;
    const evicted = fewest.values().next().value as string;
    const old = this.#candidates.get(evicted) as Candidate;
    this.#candidates.delete(evicted);
    this.#remove(evicted, old.rows);
    const rows = old.rows + 1;
    this.#candidates.set(prefix, { rows, bytes: old.bytes + bytes, rowsError: old.rows, bytesError: old.bytes });
    this.#place(prefix, rows);
    if (!this.#byRows.has(this.#minRows)) this.#minRows = rows;
  }

  /** The `n` candidates with the most rows (ties: the smaller key first), with their error bounds. */
  top(n: number): { prefix: string; rows: number; bytes: number; rowsError: number; bytesError: number }[] {
    return [...this.#candidates]
      .sort(([a, x], [b, y]) => y.rows - x.rows || Buffer.compare(Buffer.from(a), Buffer.from(b)))
      .slice(0, n)
      .map(([prefix, c]) => ({ prefix, ...c }));
  }

  #move(prefix: string, from: number, to: number): void {
    this.#remove(prefix, from);
    this.#place(prefix, to);
    if (from === this.#minRows && !this.#byRows.has(from)) this.#minRows = to;
  }

  #place(prefix: string, rows: number): void {
    const set = this.#byRows.get(rows);
    if (set === undefined) this.#byRows.set(rows, new Set([prefix]));
    else set.add(prefix);
  }

  #remove(prefix: string, rows: number): void {
    const set = this.#byRows.get(rows) as Set<string>;
    set.delete(prefix);
    if (set.size === 0) this.#byRows.delete(rows);
  }
}
