/**
 * No API key or token ever appears in a log line or a metric: the real CLI
 * is sent known keys and tokens in every place a client can put them
 * (Authorization, X-Sandbox-Key, the query string, a wrong token), then
 * every line it wrote and its metrics are searched for them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { tempDir } from '../support/harness.js';
import { jsonLines } from '../support/log-lines.js';
import { killSandbox, spawnSandbox, stopSandbox } from '../support/spawn.js';

const KEYS = ['telemetry-key-alpha', 'telemetry-key-beta'];
const ADMIN = 'telemetry-admin-secret';
const METRICS = 'telemetry-metrics-secret';
const WRONG = 'telemetry-wrong-token';
const SECRETS = [...KEYS, ADMIN, METRICS, WRONG];

describe('secrets in logs and metrics', () => {
  it('none of the keys or tokens sent appears in any log line or metric', { timeout: 120_000 }, async () => {
    const args = ['--api-keys', KEYS.join(','), '--admin-token', ADMIN, '--metrics-token', METRICS, '--log-format', 'json', '--log-level', 'trace'];
    const sb = await spawnSandbox(join(tempDir(), 'db.json'), args);
    let metrics: string | undefined;
    try {
      const send = (path: string, token: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
        fetch(`${sb.origin}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...headers } }).then((r) => r.status);
      for (const key of KEYS) {
        expect(await send('/v1/pets', key)).toBe(200);
        // An unknown query parameter is ignored: the key in it must not reach the log either.
        expect(await send(`/v1/pets?limit=1&apiKey=${key}`, key)).toBe(200);
        expect(
          await send('/v1/pets', key, { 'content-type': 'application/json' }, { method: 'POST', body: JSON.stringify({ name: key, categoryId: 1 }) }),
        ).toBe(201);
      }
      expect(await send('/v1/pets', WRONG)).toBe(401);
      expect(await send('/__sandbox/mode', WRONG)).toBe(403);
      expect(await send('/__sandbox/journal', ADMIN, { 'x-sandbox-key': KEYS[1] as string })).toBe(200);
      expect(await send('/__sandbox/journal', ADMIN, { 'x-sandbox-key': WRONG })).toBe(404);
      expect(await send('/metrics', WRONG)).toBe(403);
      const byKey = await createControlClient({ origin: sb.origin }).send('POST', '/provider-states', {
        token: KEYS[0] as string,
        json: { state: 'no pets exist', action: 'setup' },
      });
      expect(byKey.status).toBe(200);
      const scraped = await fetch(`${sb.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
      expect(scraped.status).toBe(200);
      metrics = await scraped.text();
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    } finally {
      await killSandbox(sb);
    }
    const requests = jsonLines(sb.stdout()).filter((line) => line.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(12);
    expect(requests.filter((line) => typeof line.workspace === 'string').length).toBeGreaterThanOrEqual(6);
    expect(metrics).toBeDefined();
    expect(metrics).toContain('petstore_http_requests_total{operation="createPet",status="201",mode="stateful"} 2');
    for (const secret of SECRETS) {
      expect(sb.output(), secret).not.toContain(secret);
      expect(metrics ?? '', secret).not.toContain(secret);
    }
  });
});
