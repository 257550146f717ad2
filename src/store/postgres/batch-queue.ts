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

  constructor(private readonly run: (batch: T[]) => Promise<void>) {}

  push(item: T): void {
    this.queue.push(item);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      await this.run(batch).catch((error: unknown) => {
        for (const item of batch) item.reject(error);
      });
    }
    this.running = false;
  }
}
