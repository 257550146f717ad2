/**
 * Items that arrive while the previous batch runs go together in the next
 * one: under load, many requests share one statement, one round trip to
 * the database; alone, a request runs at once. Batches run one at a time,
 * in arrival order. `run` settles each item of its batch itself (a batch
 * that throws rejects every item in it).
 */
export class BatchQueue<T extends { reject(error: unknown): void }> {
  private queue: T[] = [];
  private running = false;

  constructor(
    private readonly run: (batch: T[]) => Promise<void>,
    /** How long to gather items between batches while more are waiting, ms; 0 for none. */
    private readonly gatherMs = 0,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    // The items that arrive in this turn of the event loop (requests read from the same burst of packets) join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      await this.run(batch).catch((error: unknown) => {
        for (const item of batch) item.reject(error);
      });
      // Under load, a short gather before the next batch makes each carry more: fewer statements for the database.
      if (this.gatherMs > 0 && this.queue.length > 0) await new Promise((resolve) => setTimeout(resolve, this.gatherMs));
    }
    this.running = false;
  }
}
