/**
 * `--check-answers all` (the default) does not check again the body of an
 * answer built from the store's pets: they were checked as they entered the
 * store. That shortcut must change nothing a user sees: a sandbox that checks
 * every body (`full`) and one that skips them get the fast path's corpus in
 * the same order, and must count the same spec mismatches, by operation and
 * reason. The corpus must reach the skipped answers (lists, reads by id,
 * creates), or the comparison would prove nothing.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlOf } from '../support/control-client.js';
import { startTestSandbox, tempDir, type TestSandbox } from '../support/harness.js';
import { AUTH, auth, create, extra, method, path, query } from '../support/fast-path-corpus.js';

/** One request with its path, headers and body bytes as given; resolves with its status once answered. */
function send(origin: string, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<number> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The lines of one metric in `/metrics`, sorted. */
async function metric(sb: TestSandbox, name: string): Promise<string[]> {
  const res = await fetch(`${sb.origin}/metrics`);
  const text = await res.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .sort();
}

describe('--check-answers all: the bodies it skips would have passed the check', { timeout: 90_000 }, () => {
  let full: TestSandbox;
  let skipping: TestSandbox;
  const same = async (m: string, p: string, headers: Record<string, string>, body?: Buffer) => {
    const [a, b] = [await send(full.origin, m, p, headers, body), await send(skipping.origin, m, p, headers, body)];
    expect({ p, a }).toEqual({ p, a: b });
  };

  beforeAll(async () => {
    const dirs = [tempDir(), tempDir()];
    const secret = `${randomBytes(32).toString('hex')}\n`;
    for (const dir of dirs) writeFileSync(join(dir, 'db.json.secret'), secret);
    [full, skipping] = await Promise.all([
      startTestSandbox(['--count', '30', '--check-answers', 'full'], dirs[0]),
      startTestSandbox(['--count', '30'], dirs[1]),
    ]);
  });
  afterAll(async () => void (await Promise.all([full.stop(), skipping.stop()])));

  it('over generated reads and creates, with faults and Prefer, counted the same', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, auth, extra, (m, p, q, a, e) => same(m, `${p}${q}`, { ...a, ...e })),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(create, auth, extra, ({ headers, body }, a, e) => same('POST', '/v1/pets', { ...a, ...e, ...headers }, body)),
      { numRuns: 150 },
    );
    for (const sb of [full, skipping]) {
      expect((await controlOf(sb)('POST', '/faults', { json: { operationId: 'getPet', status: 503, count: 1 } })).status).toBe(201);
    }
    for (const p of ['/v1/pets/1', '/v1/pets/2', '/v1/pets?limit=100']) await same('GET', p, AUTH);
    for (const prefer of ['code=404', 'example=sold', 'code=418']) await same('GET', '/v1/pets/3', { ...AUTH, prefer });

    const answered = await metric(skipping, 'petstore_http_requests_total');
    for (const [operation, status] of [
      ['listPets', 200],
      ['getPet', 200],
      ['createPet', 201],
    ]) {
      expect(answered.some((line) => line.includes(`operation="${operation}",status="${status}"`))).toBe(true);
    }
    const mismatches = await metric(full, 'petstore_spec_mismatches_total');
    expect(mismatches.length).toBeGreaterThan(0);
    expect(await metric(skipping, 'petstore_spec_mismatches_total')).toEqual(mismatches);
  });
});
