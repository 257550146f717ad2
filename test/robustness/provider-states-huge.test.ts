/**
 * A state-change request naming 200,000 states (3.4 MB, well within the
 * control plane's 64 MiB body limit) kept the store rewriting the data file
 * once per state, for more than ten minutes. It is refused whole now, with
 * a 400 that says the limit, before anything is written: the data file is
 * not touched, no store write is counted, and the sandbox answers on at once.
 */
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STATES } from '../../src/control/provider-state-request.js';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { expectControlValid } from '../support/spec-check.js';

const STATES = 200_000;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

/** Store writes so far, of every kind, as `/metrics` counts them. */
async function storeWrites(): Promise<number> {
  const text = await (await fetch(`${sb.origin}/metrics`)).text();
  return [...text.matchAll(/^petstore_store_write_duration_seconds_count\{kind="\w+"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

describe(`${STATES} provider states in one request`, () => {
  it('are refused at once with a 400 naming the limit, and nothing is written', { timeout: 60_000 }, async () => {
    const body = JSON.stringify({ consumer: 'web', states: Array.from({ length: STATES }, (_, i) => `a pet with id ${i + 1} exists`) });
    expect(body.length).toBeGreaterThan(3_000_000);
    const before = { file: statSync(sb.config.dataFile), writes: await storeWrites() };

    const res = await fetch(`${sb.origin}/__sandbox/provider-states`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
      // Bounded: the old behaviour took minutes, and a hang must fail here rather than hold the run.
      signal: AbortSignal.timeout(45_000),
    });
    const text = await res.text();
    await expectControlValid('POST', '/__sandbox/provider-states', { status: res.status, headers: res.headers, text });
    const error = JSON.parse(text) as { code: string; message: string; status: number };
    expect(error).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(error.message).toMatch(new RegExp(`\\b${MAX_STATES}\\b`));
    expect(text.length).toBeLessThan(1_000);

    expect(await storeWrites()).toBe(before.writes);
    const after = statSync(sb.config.dataFile);
    expect([after.mtimeMs, after.size]).toEqual([before.file.mtimeMs, before.file.size]);
    expect((await sb.call('/pets?limit=1')).status).toBe(200);
  });
});
