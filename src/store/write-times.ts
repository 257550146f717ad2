/** Kinds of store writes: a create, a whole replacement (reset, fixture load), an append. */
export type StoreWrite = 'create' | 'replace' | 'append';

/** Hears of a write once it settled: its kind, how long it took in seconds, and whether it failed, with why. */
export type WriteListener = (kind: StoreWrite, seconds: number, failed: boolean, error?: unknown) => void;

/**
 * How a store tells of its writes: each is timed from its call to its
 * settling, and told to the store's one listener (the metrics), if it has
 * one. A store times its own writes, where it knows when they begin and end,
 * so that nothing wraps the workspaces it hands out.
 */
export class WriteTimes {
  private listener: WriteListener | undefined;

  /** Tells `listener` of every write from now on, in place of any listener before. */
  listen(listener: WriteListener): void {
    this.listener = listener;
  }

  /** A write that began at `start` (`performance.now()`) settled; `failed` with `error` if it did. */
  settled(kind: StoreWrite, start: number, failed = false, error?: unknown): void {
    this.listener?.(kind, (performance.now() - start) / 1000, failed, error);
  }

  /** `write()`, told of once its promise settles; a throw is told of too, and thrown on. */
  time<T>(kind: StoreWrite, write: () => Promise<T>): Promise<T> {
    const start = performance.now();
    let result: Promise<T>;
    try {
      result = write();
    } catch (error) {
      this.settled(kind, start, true, error);
      throw error;
    }
    return result.then(
      (value) => {
        this.settled(kind, start);
        return value;
      },
      (error: unknown) => {
        this.settled(kind, start, true, error);
        throw error;
      },
    );
  }
}
