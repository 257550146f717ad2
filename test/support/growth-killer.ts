/**
 * Kills a process (SIGKILL) the moment a file grows, from a worker thread
 * that does nothing but watch the file's size: the test's own event loop is
 * busy building and checking multi-MiB bodies and would notice a growth
 * only after the write that caused it had finished.
 */
import { Worker } from 'node:worker_threads';

const WATCH = `
const { workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const { file, pid, state } = workerData;
const size = () => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
Atomics.wait(state, 0, 0);
let last = size();
while (Atomics.load(state, 0) === 1) {
  const now = size();
  if (now > last) {
    Atomics.store(state, 0, 3);
    try { process.kill(pid, 'SIGKILL'); } catch {}
    break;
  }
  last = now;
}
`;

const IDLE = 0;
const ARMED = 1;
const CANCELLED = 2;
const FIRED = 3;

export interface GrowthKiller {
  /** From now on, the next growth of the file kills the process. */
  arm(): void;
  /** Whether the kill was sent. */
  fired(): boolean;
  /** Stops watching (whether or not it fired) and ends the thread. */
  stop(): Promise<void>;
}

/** Watches `file` for process `pid`; nothing happens until `arm()`. */
export function killOnGrowth(file: string, pid: number): GrowthKiller {
  const state = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WATCH, { eval: true, workerData: { file, pid, state } });
  const done = new Promise<void>((resolve, reject) => {
    worker.once('exit', () => resolve());
    worker.once('error', reject);
  });
  const set = (value: number) => {
    Atomics.compareExchange(state, 0, IDLE, value);
    if (value === CANCELLED) Atomics.compareExchange(state, 0, ARMED, CANCELLED);
    Atomics.notify(state, 0);
  };
  return {
    arm: () => set(ARMED),
    fired: () => Atomics.load(state, 0) === FIRED,
    stop: async () => {
      set(CANCELLED);
      await done;
    },
  };
}
