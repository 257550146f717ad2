/**
 * Clients that leave while their request waits, against the real CLI on the
 * run's backend (the data file, or PostgreSQL with `npm run test:postgres`):
 * whatever they left behind (a live journal tail, a heartbeat, a LISTEN
 * connection, an injected delay, a half-read body) is released, so SIGTERM
 * still ends the process, cleanly, within the drain deadline.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { abandonFetch, abandonRaw, runStoreArgs } from '../support/abandon.js';
import { KEY, tempDir } from '../support/harness.js';
import { killSandbox, spawnSandbox, type ChildSandbox } from '../support/spawn.js';

const ADMIN = { authorization: 'Bearer sandbox-admin' };
const AUTH = { authorization: `Bearer ${KEY}` };
/** SIGTERM to exit: the 2 s the listener gives connections, with a wide margin for a busy machine; far below the waits left behind. */
const EXIT_WITHIN_MS = 8_000;

async function spawn(): Promise<ChildSandbox> {
  return spawnSandbox(join(tempDir(), 'db.json'), [...(await runStoreArgs()), '--api-keys', KEY]);
}

/** SIGTERM, then how it ended and how long that took. */
async function terminate(sandbox: ChildSandbox): Promise<{ code: number | null; ms: number }> {
  const start = Date.now();
  sandbox.child.kill('SIGTERM');
  const timer = setTimeout(() => sandbox.child.kill('SIGKILL'), 30_000);
  const { code } = await sandbox.ended;
  clearTimeout(timer);
  return { code, ms: Date.now() - start };
}

/** SIGTERM ends the process with code 0 within the deadline, with nothing reported still held. */
async function expectCleanExit(sandbox: ChildSandbox): Promise<void> {
  const ended = await terminate(sandbox);
  expect(ended.code, sandbox.output()).toBe(0);
  expect(ended.ms).toBeLessThan(EXIT_WITHIN_MS);
  expect(sandbox.output()).not.toContain('still held');
}

/** A few answered requests, so that the journal has entries to read back. */
async function fillJournal(origin: string): Promise<void> {
  for (let i = 0; i < 6; i++) await (await fetch(`${origin}/v1/pets?limit=1`, { headers: AUTH })).text();
}

describe('SIGTERM after clients left while their requests waited', () => {
  it('30 journal streams with limit=5, each dropped after 15 ms: the process still exits promptly', { timeout: 120_000 }, async () => {
    const sandbox = await spawn();
    try {
      await fillJournal(sandbox.origin);
      const url = `${sandbox.origin}/__sandbox/journal/stream?limit=5`;
      await Promise.all(Array.from({ length: 30 }, () => abandonFetch(url, 15, { headers: ADMIN })));
      await expectCleanExit(sandbox);
    } finally {
      await killSandbox(sandbox);
    }
  });

  it('requests dropped at every waiting point: the process exits cleanly within the deadline', { timeout: 120_000 }, async () => {
    const sandbox = await spawn();
    const port = Number(new URL(sandbox.origin).port);
    try {
      await fillJournal(sandbox.origin);
      // Injected delays far longer than the deadline: a wait not released on leaving would outlive it.
      for (const operationId of ['listPets', 'createPet', 'getPet']) {
        const res = await fetch(`${sandbox.origin}/__sandbox/faults`, {
          method: 'POST',
          headers: { ...ADMIN, 'content-type': 'application/json' },
          body: JSON.stringify({ operationId, latencyMs: 45_000 }),
        });
        expect(res.status).toBe(201);
      }
      const post = { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) };
      const control = (path: string, method = 'GET', body?: unknown) =>
        abandonFetch(`${sandbox.origin}/__sandbox${path}`, 30, {
          method,
          headers: { ...ADMIN, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => abandonFetch(`${sandbox.origin}/__sandbox/journal/stream?limit=${i % 3}`, i * 3, { headers: ADMIN })),
        ...Array.from({ length: 5 }, () => abandonFetch(`${sandbox.origin}/v1/pets`, 100, { headers: AUTH })),
        ...Array.from({ length: 5 }, () => abandonFetch(`${sandbox.origin}/v1/pets/1`, 100, { headers: AUTH })),
        ...Array.from({ length: 5 }, () => abandonFetch(`${sandbox.origin}/v1/pets`, 100, post)),
        // A body that never arrives whole, on /v1 and on the control plane.
        abandonRaw(
          port,
          `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
          100,
          '{"na',
        ),
        abandonRaw(
          port,
          'POST /__sandbox/reset HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer sandbox-admin\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
          100,
          '{',
        ),
        control('/export'),
        control('/reset', 'POST', { count: 3000 }),
        control('/load', 'POST', { generate: { seed: 3, count: 3000 } }),
        control('/checkpoints', 'POST', { name: 'left' }),
        control('/journal'),
      ]);
      await expectCleanExit(sandbox);
    } finally {
      await killSandbox(sandbox);
    }
  });

  it("live journal streams still open at SIGTERM are closed by the listener's grace, and the process exits cleanly", { timeout: 120_000 }, async () => {
    const sandbox = await spawn();
    const controller = new AbortController();
    try {
      await fillJournal(sandbox.origin);
      const streams = await Promise.all(
        Array.from({ length: 5 }, () => fetch(`${sandbox.origin}/__sandbox/journal/stream?limit=5`, { headers: ADMIN, signal: controller.signal })),
      );
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
      const read = streams.map((s) => s.text().catch(() => 'closed'));
      await expectCleanExit(sandbox);
      await Promise.all(read);
    } finally {
      controller.abort();
      await killSandbox(sandbox);
    }
  });
});
