interface Deferred<R> {
  resolve(value: R): void;
  reject(error: unknown): void;
}

type Job<T, R> = ({ item: T } & Deferred<R>) | ({ task: () => Promise<unknown> } & Deferred<unknown>);

/**
 * Group commit: writes run one at a time, in the order they were asked for.
 * Items waiting together are committed as one batch (one disk write and one
 * sync for all of them), up to `maxBatchBytes`; a task (a reset, a
 * compaction) runs alone, between batches. A batch that fails rejects every
 * item of it and nothing else.
 */
export class WriteQueue<T, R> {
  private jobs: Job<T, R>[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly commit: (items: T[]) => Promise<R[]>,
    private readonly sizeOf: (item: T) => number,
    private readonly maxBatchBytes = 8 * 1024 * 1024,
  ) {}

  /** Resolves with the item's result once its batch is committed. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => this.push({ item, resolve, reject }));
  }

  /** Runs `task` alone, after everything asked for before it. */
  exclusive<V>(task: () => Promise<V>): Promise<V> {
    return new Promise<V>((resolve, reject) => this.push({ task, resolve: resolve as (value: unknown) => void, reject }));
  }

  /** Whether anything is waiting or running. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves when everything asked for so far has run. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private push(job: Job<T, R>): void {
    this.jobs.push(job);
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.jobs.length > 0) {
        const first = this.jobs[0] as Job<T, R>;
        if ('task' in first) {
          this.jobs.shift();
          await Promise.resolve().then(first.task).then(first.resolve, first.reject);
        } else {
          await this.runBatch(this.takeBatch());
        }
      }
    } finally {
      this.running = undefined;
    }
  }

  private takeBatch(): ({ item: T } & Deferred<R>)[] {
    const batch: ({ item: T } & Deferred<R>)[] = [];
    let bytes = 0;
    for (const job of this.jobs) {
      if ('task' in job || (batch.length > 0 && bytes + this.sizeOf(job.item) > this.maxBatchBytes)) break;
      bytes += this.sizeOf(job.item);
      batch.push(job);
    }
    this.jobs.splice(0, batch.length);
    return batch;
  }

  private async runBatch(batch: ({ item: T } & Deferred<R>)[]): Promise<void> {
    try {
      const results = await this.commit(batch.map((job) => job.item));
      batch.forEach((job, i) => job.resolve(results[i] as R));
    } catch (error) {
      for (const job of batch) job.reject(error);
    }
  }
}
