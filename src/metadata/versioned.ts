/**
 * One stored version of a cell.
 *
 * @example
 * ```ts
 * const latest: CellVersion<number> = reading.temperature![0]; // { value: 21.5, timestamp: Date }
 * ```
 */
export interface CellVersion<T> {
  /** The decoded cell value. */
  readonly value: T;
  /** Cell timestamp (millisecond granularity). */
  readonly timestamp: Date;
}

/**
 * Type of a property declared with `@Column({ versions: n })`: up to n
 * versions, newest first.
 *
 * @example
 * ```ts
 * @Column({ family: 'm', type: 'float', versions: 5 }) temperature?: Versioned<number>;
 * ```
 */
export type Versioned<T> = CellVersion<T>[];
