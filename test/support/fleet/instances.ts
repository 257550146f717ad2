/**
 * The fleet's sandbox instances: each a real process on a port of its own
 * that stays the same across restarts (HAProxy's configuration names it),
 * with a data folder of its own for its lock, all on one database.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir } from '../harness.js';
import { spawnSandbox, stopSandbox, killSandbox, type ChildSandbox, type Ended } from '../spawn.js';
import { freePort } from '../ports.js';

export interface FleetInstance {
  readonly name: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The process running now. */
  current(): ChildSandbox;
  /** SIGTERM, waits for the drain and the exit (its code), then starts it again on the same port and waits until it is ready. */
  restart(): Promise<Ended>;
  kill(): Promise<void>;
}

/** Waits until `origin`'s `/readyz` answers 200; fails after `timeoutMs`. */
export async function waitReady(origin: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${origin}/readyz`).then(
      (res) => (void res.arrayBuffer(), res.status),
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${origin}/readyz did not answer 200 within ${timeoutMs / 1000} s (last: ${status})`);
    await sleep(100);
  }
}

/** Starts one instance named `name` with `args`, on a port picked now and kept. */
export async function startFleetInstance(name: string, args: readonly string[]): Promise<FleetInstance> {
  const port = await freePort();
  const dataFile = join(tempDir(`petstore-fleet-${name}-`), 'db.json');
  const start = () => spawnSandbox(dataFile, [...args, '--port', String(port)]);
  let child = await start();
  const origin = `http://127.0.0.1:${port}`;
  return {
    name,
    port,
    origin,
    current: () => child,
    async restart() {
      const ended = await stopSandbox(child);
      child = await start();
      await waitReady(origin, 30_000);
      return ended;
    },
    kill: () => killSandbox(child),
  };
}
