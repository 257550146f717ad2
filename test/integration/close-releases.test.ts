/**
 * `close()` releases everything, on every way in: with a live journal tail
 * and a request held in a fault's 60 s delay open, closing the sandbox ends
 * the tail, answers the held request 503 at once (the Error body), and
 * leaves this process holding nothing more than before the sandbox was made
 * (`process.getActiveResourcesInfo()`: no heartbeat, delay, listener or
 * store handle). A child process that does the same through each way in
 * exits by itself.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { activeResources, heldBeyond, trackTimers } from '../support/abandon.js';
import { libraryStore } from '../support/harness.js';
import { Socket } from 'node:net';
import { heldInDelay, openWay, WAY_NAMES, within, type WayName } from '../support/ways-in.js';

const LATENCY_MS = 60_000;

/** The sockets of this process not destroyed yet (Node's list of active handles keeps some that are). */
const openSockets = (): number =>
  (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((handle) => handle instanceof Socket && !handle.destroyed).length;
const CHILD = fileURLToPath(new URL('../support/close-exit-child.ts', import.meta.url));
/**
 * How long a child may still run once it has closed its sandbox: well under
 * the fault's minute, and a heartbeat left behind would hold it for ever.
 */
const CLOSED_BOUND_MS = 20_000;
/** How long a child may take in all (loading tsx and the sandbox, on a busy machine). */
const START_BOUND_MS = 90_000;

describe('close() on every way in', () => {
  for (const name of WAY_NAMES) {
    it(`${name}: the tail ends, the delayed request is answered 503 at once, nothing is left`, { timeout: 40_000 }, async () => {
      const store = await libraryStore();
      const baseline = activeResources();
      const sockets = openSockets();
      const timers = trackTimers();
      onTestFinished(() => timers.stop());
      const way = await openWay(name, { store });
      await way.workspace.faults.add({ operationId: 'listPets', latencyMs: LATENCY_MS });
      const tail = await way.stream();
      expect(tail.status).toBe(200);
      const started = Date.now();
      const delayed = way.send('/v1/pets');
      await heldInDelay(way.workspace, 10_000);
      await way.close();
      const answer = await within(delayed, 10_000, 'the delayed request');
      expect(answer.status).toBe(503);
      expect(JSON.parse(await answer.ended)).toEqual({ code: 'service_unavailable', status: 503, message: expect.any(String) });
      // Not the fault's minute: the close answered it.
      expect(Date.now() - started).toBeLessThan(LATENCY_MS / 2);
      await within(tail.ended, 10_000, 'the journal tail');
      // No timer made since the sandbox was (a heartbeat, a fault's delay) still holds the process.
      expect(await timers.pending(5_000)).toBe(0);
      if (name === 'msw') {
        // MSW's fetch interception leaves its mocked TLS sockets listed, destroyed, holding nothing: only open ones count.
        expect(await heldBeyond(baseline, 5_000, (kind) => kind !== 'TCPSocketWrap')).toEqual({});
        expect(openSockets()).toBeLessThanOrEqual(sockets);
      } else expect(await heldBeyond(baseline, 5_000)).toEqual({});
    });
  }

  it('a request after close is answered 503, on the fetch handler and the engine alike', async () => {
    const way = await openWay('sandbox.fetch');
    await way.close();
    const answer = await way.send('/v1/pets');
    expect(answer.status).toBe(503);
    expect(JSON.parse(await answer.ended)).toMatchObject({ code: 'service_unavailable', status: 503 });
  });
});

/** Runs the child on `name`: how it ended and what it printed; killed if it is still there `CLOSED_BOUND_MS` after its close, or at `START_BOUND_MS`. */
function runChild(name: WayName): Promise<{ code: number | null; killed: boolean; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, name], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let killed = false;
  const kill = () => {
    killed = true;
    child.kill('SIGKILL');
  };
  const timers = [setTimeout(kill, START_BOUND_MS)];
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('closed:') && timers.length === 1) timers.push(setTimeout(kill, CLOSED_BOUND_MS));
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ code, killed, output });
    }),
  );
}

describe('a process that closes its sandbox exits by itself', () => {
  it('on every way in, with a live tail and a delayed request open at close', { timeout: START_BOUND_MS + 10_000 }, async () => {
    const ended = await Promise.all(WAY_NAMES.map(async (name) => ({ name, ...(await runChild(name)) })));
    for (const { name, code, killed, output } of ended) {
      expect({ name, killed, code }, output).toEqual({ name, killed: false, code: 0 });
      expect(output, name).toContain('closed: 503, tail ended');
    }
  });
});
