/**
 * HAProxy from the system's package, run in the foreground on the very
 * configuration a deployment uses (`deploy/haproxy.cfg`), its addresses
 * given through the environment as that file reads them.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../spawn.js';
import { waitForPort } from '../ports.js';

export const HAPROXY_CONFIG = join(ROOT, 'deploy', 'haproxy.cfg');

export interface RunningHaproxy {
  /** e.g. `http://127.0.0.1:41000` */
  origin: string;
  pid: number | undefined;
  /** Its log so far (one line per request, and its own notices). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts HAProxy listening on `port` in front of `servers` (`host:port` each, three of them). */
export async function startHaproxy(port: number, servers: readonly string[]): Promise<RunningHaproxy> {
  const env = { ...process.env, FLEET_LISTEN: `127.0.0.1:${port}`, SANDBOX_1: servers[0], SANDBOX_2: servers[1], SANDBOX_3: servers[2] };
  const child = spawn('haproxy', ['-db', '-f', HAPROXY_CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await ended;
  };
  try {
    await waitForPort(port, 10_000, () => child.exitCode !== null && `haproxy exited (${child.exitCode}): ${output}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid, output: () => output, stop };
}
