/**
 * A client that leaves stops its control operation: a load, reset or
 * restore whose client closed its connection while the operation checked
 * its input writes nothing (`control/before-write.ts`), and nothing is
 * written after it either. Over real HTTP, on the run's backend.
 */
import { connect } from 'node:net';
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlSandbox, type Control } from '../support/control-client.js';
import type { TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => ({ sb, ctl } = await startControlSandbox(['--api-keys', 'key-a'])));
afterAll(() => sb.stop());

/** What `/metrics` counts: store writes of a kind, and answers of a control operation by status. */
async function counted(): Promise<{ replaces: number; answers: (operation: string) => Record<string, number> }> {
  const text = await (await fetch(`${sb.origin}/metrics`)).text();
  const replaces = Number(/^petstore_store_write_duration_seconds_count\{kind="replace"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  const answers = (operation: string) => {
    const byStatus: Record<string, number> = {};
    for (const m of text.matchAll(/^petstore_http_requests_total\{([^}]*)\} (\d+)$/gm)) {
      if (!(m[1] as string).includes(`operation="${operation}"`)) continue;
      const status = /status="(\d+)"/.exec(m[1] as string)?.[1] as string;
      byStatus[status] = (byStatus[status] ?? 0) + Number(m[2]);
    }
    return byStatus;
  };
  return { replaces, answers };
}

/**
 * Sends a control request whole and closes the connection at once, before
 * any answer: the sandbox reads the request, then hears that its client
 * left while it works on it. Resolves once the connection is closed.
 */
function sendAndLeave(path: string, body: unknown): Promise<void> {
  const text = JSON.stringify(body);
  const head = [
    `POST /__sandbox${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${sb.config.adminToken}`,
    'X-Sandbox-Key: key-a',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(text)}`,
  ].join('\r\n');
  return new Promise((resolve) => {
    const socket = connect({ port: Number(new URL(sb.origin).port), host: '127.0.0.1' }, () => socket.end(`${head}\r\n\r\n${text}`));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

/** Waits until `/metrics` has counted one more answer of `operation` than `before` (the sandbox is done with it). */
async function answered(operation: string, before: number): Promise<Record<string, number>> {
  for (;;) {
    const byStatus = (await counted()).answers(operation);
    if (Object.values(byStatus).reduce((a, b) => a + b, 0) > before) return byStatus;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const total = (byStatus: Record<string, number>) => Object.values(byStatus).reduce((a, b) => a + b, 0);
const pets = async () => (await ctl('GET', '/workspaces')).body.workspaces[0] as { count: number; nextId: number };
const fileState = () => (sb.config.dataFile && !sb.config.memory && sb.config.postgresUrl === undefined ? statSync(sb.config.dataFile) : undefined);

describe('a control operation whose client leaves', () => {
  it.each([
    ['a fixture load of 200,000 generated pets', 'loadFixture', '/load', { generate: { seed: 3, count: 200_000 } }],
    ['a reset to 200,000 pets', 'resetWorkspace', '/reset', { seed: 3, count: 200_000 }],
    ['provider states', 'changeProviderState', '/provider-states', { states: Array.from({ length: 100 }, () => 'no pets exist') }],
  ])('%s writes nothing, then or later', { timeout: 120_000 }, async (_case, operation, path, body) => {
    expect((await ctl('POST', '/reset', { key: 'key-a', json: { seed: 1, count: 3 } })).status).toBe(200);
    const before = await counted();
    const stored = await pets();
    const file = fileState();
    await sendAndLeave(path, body);
    const byStatus = await answered(operation, total(before.answers(operation)));
    // Reported as a request whose client left (400), not as done (200).
    expect(byStatus['200'] ?? 0).toBe(before.answers(operation)['200'] ?? 0);
    expect((await counted()).replaces).toBe(before.replaces);
    expect(await pets()).toEqual(stored);
    // Nothing comes later either.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await counted()).replaces).toBe(before.replaces);
    expect(await pets()).toEqual(stored);
    if (file) expect([fileState()?.mtimeMs, fileState()?.size]).toEqual([file.mtimeMs, file.size]);
  });

  it('the same operation, its client waiting, writes as usual', async () => {
    const before = await counted();
    expect((await ctl('POST', '/load', { key: 'key-a', json: { generate: { seed: 3, count: 2_000 } } })).status).toBe(200);
    expect((await counted()).replaces).toBe(before.replaces + 1);
    expect((await pets()).count).toBe(2_000);
  });
});
