/**
 * The soak's load: a bounded async loop, not autocannon (whose requests are
 * all alike and whose answers are not checked). A few workers share one
 * rate: the general traffic (soak-ops.ts), one sequence per control
 * workspace (soak-control.ts), and the rotation of the ledger workspaces.
 * It stops at a deadline; a request in flight then has at most its own
 * deadline (soak-http.ts) to finish.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SoakContext } from './soak-calls.js';
import { controlStep, rotate } from './soak-control.js';
import type { ControlWorkspace } from './soak-ledger.js';
import { runOne, type Workload } from './soak-ops.js';

export interface TrafficSettings {
  /** Requests per second at most, all workers together. */
  rate: number;
  /** Workers of the general traffic (each one request at a time). */
  workers: number;
  /** Pets a ledger workspace is reset to when it is rotated. */
  seeded: number;
  /** How often one of the ledger workspaces is rotated. */
  rotateEveryMs: number;
}

/** A shared pace: each call waits for the next of `rate` slots a second. */
function createPacer(rate: number): () => Promise<void> {
  const gap = 1000 / rate;
  let next = performance.now();
  return async () => {
    const now = performance.now();
    const slot = Math.max(next, now);
    next = slot + gap;
    if (slot - now >= 1) await sleep(slot - now);
  };
}

/** Runs the mixed load on `work` and `controls` until `until` (performance.now() time), then waits for the requests in flight. */
export async function runTraffic(ctx: SoakContext, work: Workload, controls: ControlWorkspace[], settings: TrafficSettings, until: number): Promise<void> {
  const pace = createPacer(settings.rate);
  const live = () => performance.now() < until;
  const loop = async (step: () => Promise<void>) => {
    for (await pace(); live(); await pace()) await step();
  };
  const rotator = async () => {
    for (let i = 0; ; i++) {
      await sleep(Math.max(0, Math.min(settings.rotateEveryMs, until - performance.now())));
      // Not in the last second: a workspace rotated then would end the run with an empty ledger.
      if (until - performance.now() < 1000) return;
      await rotate(ctx, work.ledgers[i % work.ledgers.length] as Workload['faulted'], settings.seeded);
    }
  };
  await Promise.all([
    ...Array.from({ length: settings.workers }, () => loop(() => runOne(ctx, work))),
    ...controls.map((ws) => loop(() => controlStep(ctx, ws, work.faulted))),
    rotator(),
  ]);
}
