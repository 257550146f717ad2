/** Items a caller waits on: a batch that throws rejects each of them. */
export interface Settled {
  reject(error: unknown): void;
}

/** What to do with a batch whose run threw: reject each waiting caller. */
export const rejectEach = (error: unknown, batch: Settled[]): void => {
  for (const item of batch) item.reject(error);
};

export interface BatchQueueOptions<T> {
  /** How long to gather items between batches while more are waiting, ms; 0 (the default) for none. */
  gatherMs?: number;
  /** Called when a batch's run throws; the queue goes on with the next batch. */
  failed(error: unknown, batch: T[]): void;
}

/**
 * Items that arrive while the previous batch runs go together in the next
 * one: under load, many requests share one statement, one round trip to
 * the database; alone, a request runs at once. Batches run one at a time,
 * in arrival order. `run` settles each item of its batch itself; a batch
 * that throws goes to `failed`.
 */
export class BatchQueue<T> {
  private queue: T[] = [];
  private draining: Promise<void> | undefined;

  constructor(
    private readonly run: (batch: T[]) => Promise<void>,
    private readonly options: BatchQueueOptions<T>,
  ) {}

  /** Items waiting for a batch (not those of the batch running). */
  get waiting(): number {
    return this.queue.length;
  }

  push(item: T): void {
    this.queue.push(item);
    this.draining ??= this.drain();
  }

  /** Resolves once every item pushed so far has been run. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    // The items that arrive in this turn of the event loop (requests read from the same burst of packets) join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    const gatherMs = this.options.gatherMs ?? 0;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      await this.run(batch).catch((error: unknown) => this.options.failed(error, batch));
      // Under load, a short gather before the next batch makes each carry more: fewer statements for the database.
      if (gatherMs > 0 && this.queue.length > 0) await new Promise((resolve) => setTimeout(resolve, gatherMs));
    }
    this.draining = undefined;
  }
}
