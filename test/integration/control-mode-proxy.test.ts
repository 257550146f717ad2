/**
 * Switching to proxy mode through the control plane: offered and accepted
 * only when the sandbox knows an upstream; once on, /v1 is the upstream's,
 * and switching back finds the sandbox's own data untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlOf } from '../support/control-client.js';
import { expectError } from '../support/error-check.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

let upstream: TestSandbox;
beforeAll(async () => (upstream = await startTestSandbox(['--count', '2'])));
afterAll(() => upstream?.stop());

describe('a sandbox without an upstream', () => {
  it('neither offers nor accepts proxy mode', async () => {
    const sb = await startTestSandbox();
    try {
      const ctl = controlOf(sb);
      expect((await ctl('GET', '/mode')).body.modes).not.toContain('proxy');
      const refused = await ctl('PUT', '/mode', { json: { mode: 'proxy' } });
      expectError(refused, 400, 'invalid_request');
      expect(refused.body.message).toMatch(/--upstream/);
      expect((await ctl('GET', '/mode')).body.mode).toBe('stateful');
    } finally {
      await sb.stop();
    }
  });
});

describe('a sandbox with an upstream', () => {
  let sb: TestSandbox;
  beforeAll(async () => (sb = await startTestSandbox(['--count', '7', '--upstream', upstream.baseUrl])));
  afterAll(() => sb?.stop());

  it('answers from its own store until switched to proxy, then from the upstream, then from its store again', async () => {
    const ctl = controlOf(sb);
    expect((await ctl('GET', '/mode')).body).toEqual({ mode: 'stateful', modes: ['stateful', 'example', 'dynamic', 'proxy'] });
    const own = await sb.call('/pets');
    expect(own.body).toHaveLength(7);

    expect((await ctl('PUT', '/mode', { json: { mode: 'proxy' } })).body.mode).toBe('proxy');
    const proxied = await sb.call('/pets');
    expect(proxied.text).toBe((await upstream.call('/pets')).text);
    expect(proxied.body).toHaveLength(2);

    expect((await ctl('PUT', '/mode', { json: { mode: 'stateful' } })).body.mode).toBe('stateful');
    expect((await sb.call('/pets')).text).toBe(own.text);
  });
});
