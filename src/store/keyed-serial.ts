/**
 * Work run one at a time per key (a workspace's checkpoint saves and
 * deletes), while different keys run side by side. A key's chain is
 * forgotten once it has settled, so idle keys cost nothing.
 */
export class KeyedSerial {
  private readonly chains = new Map<string, Promise<unknown>>();

  /** Runs `work` after the key's earlier work has settled, whether it succeeded or not. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => undefined);
    this.chains.set(key, settled);
    void settled.then(() => this.chains.get(key) === settled && this.chains.delete(key));
    return run;
  }
}
