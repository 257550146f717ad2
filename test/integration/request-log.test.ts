/**
 * The request log of the real CLI, read back as JSON: one line per answered
 * request (/v1, control plane, probes, unknown paths) with its request id,
 * method, path, status, duration, operation and workspace; X-Request-Id
 * taken from the client or made, and returned; start-up and shutdown lines
 * through the same logger; `--log-level` (the start-up line at every level
 * but silent) and `--log-format`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientOf } from '../support/control-client.js';
import { jsonLines } from '../support/log-lines.js';
import { tempDir } from '../support/harness.js';
import { runningServer } from '../../src/store/file/lock.js';
import { collectOutput, killSandbox, ROOT, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const KEY = 'log-test-key-1';
const ADMIN = 'log-test-admin-token';
const SECRETS = ['--api-keys', `${KEY},log-test-key-2`, '--admin-token', ADMIN];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Requests of every kind, each with the X-Request-Id it got back. */
async function traffic(sb: Pick<ChildSandbox, 'origin' | 'baseUrl'>): Promise<Record<string, string | null>> {
  const get = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${sb.origin}${path}`, { headers })).headers.get('x-request-id');
  const ids: Record<string, string | null> = {};
  ids.list = await get('/v1/pets?limit=2&status=available', { authorization: `Bearer ${KEY}`, 'x-request-id': 'client-chosen-42' });
  ids.refused = await get('/v1/pets', { authorization: 'Bearer not-a-key-at-all' });
  ids.badId = await get('/v1/pets/1', { authorization: `Bearer ${KEY}`, 'x-request-id': 'has space' });
  const created = await fetch(`${sb.baseUrl}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Logged', categoryId: 1 }),
  });
  ids.create = created.headers.get('x-request-id');
  ids.ready = await get('/readyz');
  ids.unknown = await get('/nowhere');
  // Refused by the HTTP parser before any handler: no id comes back, and it gets a line of its own.
  ids.tooLarge = await get('/v1/pets', { 'x-filler': 'a'.repeat(20_000) });
  await clientOf({ origin: sb.origin, config: { adminToken: ADMIN } }).call('getMode');
  return ids;
}

describe('request logs of the CLI', { timeout: 120_000 }, () => {
  it('one JSON line per request with its fields; the id the client sent, or a new one, returned and logged', async () => {
    const sb = await spawnSandbox(join(tempDir(), 'db.json'), [...SECRETS, '--log-format', 'json']);
    let ids: Record<string, string | null>;
    try {
      ids = await traffic(sb);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    } finally {
      await killSandbox(sb);
    }
    const lines = jsonLines(sb.stdout());
    expect(sb.stderr()).toBe('');
    for (const line of lines) expect(line).toMatchObject({ level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), pid: sb.child.pid });
    expect(lines[0]?.msg).toMatch(/^Pet Store sandbox .* listening on http:\/\/127\.0\.0\.1:\d+\/v1; docs /);
    expect(lines.at(-1)?.msg).toBe('stopped');
    expect(lines.some((l) => String(l.msg).startsWith('SIGTERM: /readyz answers 503'))).toBe(true);

    const requests = lines.filter((l) => l.msg === 'request');
    const byId = new Map(requests.map((l) => [l.requestId, l]));
    expect(ids.list).toBe('client-chosen-42');
    expect(ids.badId).toMatch(UUID);
    for (const name of ['refused', 'create', 'ready', 'unknown']) expect(ids[name], name).toMatch(UUID);
    const workspace = byId.get(ids.list)?.workspace;
    expect(workspace).toMatch(/^[0-9a-f]{16}$/);
    expect(byId.get(ids.list)).toMatchObject({ method: 'GET', path: '/v1/pets', status: 200, operation: 'listPets', mode: 'stateful' });
    expect(byId.get(ids.list)?.durationMs).toEqual(expect.any(Number));
    expect(byId.get(ids.refused)).toMatchObject({ path: '/v1/pets', status: 401, operation: 'listPets' });
    expect(byId.get(ids.refused)?.workspace).toBeUndefined();
    expect(byId.get(ids.badId)).toMatchObject({ path: '/v1/pets/1', status: 200, operation: 'getPet', workspace });
    expect(byId.get(ids.create)).toMatchObject({ method: 'POST', path: '/v1/pets', status: 201, operation: 'createPet', workspace });
    expect(byId.get(ids.ready)).toMatchObject({ path: '/readyz', status: 200, operation: 'getReadiness' });
    expect(byId.get(ids.unknown)).toMatchObject({ path: '/nowhere', status: 404 });
    expect(requests.find((l) => l.path === '/__sandbox/mode')).toMatchObject({ status: 200, operation: 'getMode' });
    expect(requests).toHaveLength(7);
    expect(ids.tooLarge).toBeNull();
    const refused = lines.filter((l) => l.msg === 'request refused before it was read');
    expect(refused).toEqual([expect.objectContaining({ status: 431, code: 'request_header_too_large', mode: 'stateful' })]);
  });

  it.each(['warn', 'error'])('--log-level %s writes no request line, only the start-up line', async (level) => {
    const sb = await spawnSandbox(join(tempDir(), 'db.json'), [...SECRETS, '--log-format', 'json', '--log-level', level]);
    try {
      await traffic(sb);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    } finally {
      await killSandbox(sb);
    }
    const lines = jsonLines(sb.stdout());
    expect(lines.map((l) => l.msg)).toEqual([expect.stringMatching(`^Pet Store sandbox .* listening on ${sb.origin}/v1; `)]);
    expect(sb.stderr()).toBe('');
  });

  it('--log-level silent writes nothing, not even the start-up line', async () => {
    const dataFile = join(tempDir(), 'db.json');
    // No start-up line to wait for: the lock file names the origin once the sandbox listens.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/bin.ts', '--port', '0', '--data', dataFile, ...SECRETS, '--log-level', 'silent'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = collectOutput(child);
    const ended = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let origin: string | undefined;
      while (!origin && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        origin = runningServer(dataFile)?.origin;
      }
      expect(origin, output.all()).toBeDefined();
      await traffic({ origin: origin as string, baseUrl: `${origin as string}/v1` });
      child.kill('SIGTERM');
      expect(await ended).toBe(0);
      expect(output.all()).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('--log-format pretty writes lines for people', async () => {
    const sb = await spawnSandbox(join(tempDir(), 'db.json'), [...SECRETS, '--log-format', 'pretty']);
    try {
      const id = (await traffic(sb)).list;
      await stopSandbox(sb);
      expect(sb.stdout()).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}Pet Store sandbox /);
      expect(sb.stdout()).toMatch(new RegExp(`\\d INFO  GET /v1/pets 200 [\\d.]+ ms listPets \\[${id}\\] workspace=[0-9a-f]{16} mode=stateful\n`));
      expect(() => jsonLines(sb.stdout())).toThrow();
    } finally {
      await killSandbox(sb);
    }
  });
});
