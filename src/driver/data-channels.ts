/**
 * What {@link DataChannels} needs of a client: to close its channels.
 * @internal
 */
export interface ClosableClient {
  close(): Promise<void>;
}

/**
 * One call's hold on the client it went out on.
 * @internal
 */
export interface ChannelLease<C> {
  readonly client: C;
  /** The call has ended; the first call counts, later ones do nothing. */
  release(): void;
  /**
   * The call went silent (cut by its idle or attempt timeout): its client
   * takes no new call, and closes once its last call has ended.
   */
  retire(): void;
}

/**
 * How many retired clients may wait for their last calls to end. Past it the
 * oldest is closed at once: its calls in flight are not cancelled by that,
 * and their own deadlines or idle timeouts still end them.
 * @internal
 */
export const MAX_RETIRED_CLIENTS = 4;

interface Channel<C> {
  readonly client: C;
  calls: number;
  retired: boolean;
  closed: boolean;
}

/**
 * The data clients (each with its own gRPC channels, so its own TCP
 * connections) that the data calls go out on: one current client, created on
 * the first call, that every new call uses; and the clients retired because
 * a call on them went silent, each closed as soon as no call uses it.
 *
 * A call that went silent (no response for its idle timeout, or longer than
 * its attempt timeout) may sit on a connection that still answers keepalive
 * pings but carries no data any more, such as an HTTP/2 connection whose
 * flow-control window was lost: retrying on it fails the same way every
 * time. Retiring its client sends the next attempt, of this call and of any
 * other, on new connections. Other calls still running on the retired client
 * go on undisturbed; a client retired twice (by several calls that went
 * silent together) is replaced once.
 *
 * Bounded: the current client plus at most {@link MAX_RETIRED_CLIENTS}
 * retired ones; `close()` closes them all.
 * @internal
 */
export class DataChannels<C extends ClosableClient> {
  readonly #create: (generation: number) => C;
  readonly #maxRetired: number;
  readonly #retired = new Set<Channel<C>>();
  readonly #closing = new Set<Promise<void>>();
  #current: Channel<C> | undefined;
  #created = 0;
  #closed = false;

  /** `create(generation)` makes a client: generation 0 first, then 1, 2, ... for each replacement. */
  constructor(create: (generation: number) => C, maxRetired = MAX_RETIRED_CLIENTS) {
    this.#create = create;
    this.#maxRetired = maxRetired;
  }

  /** Clients created so far. */
  get created(): number {
    return this.#created;
  }

  /** Clients open: the current one, if created, and the retired ones still carrying calls. */
  get open(): number {
    return (this.#current === undefined ? 0 : 1) + this.#retired.size;
  }

  /** The current client for one call, created when there is none; throws what creating it throws. */
  lease(): ChannelLease<C> {
    if (this.#closed) throw new Error('the data channels are closed');
    if (this.#current === undefined) {
      const client = this.#create(this.#created);
      this.#created += 1;
      this.#current = { client, calls: 0, retired: false, closed: false };
    }
    const channel = this.#current;
    channel.calls += 1;
    let released = false;
    return {
      client: channel.client,
      release: () => {
        if (released) return;
        released = true;
        channel.calls -= 1;
        if (channel.retired && channel.calls === 0) void this.#shut(channel);
      },
      retire: () => this.#retire(channel),
    };
  }

  /**
   * Closes every client, current and retired (calls still running on them
   * are the caller's to cancel first), and waits for the closes begun
   * earlier. Rejects with the first error of closing the current or a
   * retired client; later leases throw.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const channels = [...this.#retired];
    if (this.#current !== undefined) channels.unshift(this.#current);
    this.#current = undefined;
    const earlier = [...this.#closing];
    const now = channels.map((channel) => this.#shut(channel));
    await Promise.all(earlier);
    await Promise.all(now);
  }

  #retire(channel: Channel<C>): void {
    if (channel.retired || channel.closed) return;
    channel.retired = true;
    if (this.#current === channel) this.#current = undefined;
    if (channel.calls === 0) {
      void this.#shut(channel);
      return;
    }
    this.#retired.add(channel);
    if (this.#retired.size > this.#maxRetired) {
      const oldest = this.#retired.values().next().value as Channel<C>;
      void this.#shut(oldest);
    }
  }

  /** Closes a client once; the promise rejects when closing it fails (a close in the background swallows that). */
  #shut(channel: Channel<C>): Promise<void> {
    this.#retired.delete(channel);
    if (channel.closed) return Promise.resolve();
    channel.closed = true;
    const closing = Promise.resolve().then(() => channel.client.close());
    const settled = closing.then(
      () => undefined,
      () => undefined,
    );
    this.#closing.add(settled);
    void settled.then(() => this.#closing.delete(settled));
    return closing;
  }
}
