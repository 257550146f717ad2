/**
 * `GET /__sandbox/pact` and `petstore-sandbox pact` over real HTTP: a
 * workspace's journal as a consumer's pact, answers checked against
 * spec/sandbox-control.yaml.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlSandbox, type Control } from '../support/control-client.js';
import { tempDir, type TestSandbox } from '../support/harness.js';
import { pactV4Problems } from '../support/pact-v4.js';
import { runCli } from '../support/spawn.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => {
  ({ sb, ctl } = await startControlSandbox(['--api-keys', 'key-a,key-b']));
  await sb.op('getPet', '/pets/3', { key: 'key-a' });
  await sb.op('getPet', '/pets/999', { key: 'key-a' });
  await sb.op('listPets', '/pets?status=sold', { key: 'key-b' });
  await sb.op('listPets', '/pets', { key: null });
});
afterAll(() => sb.stop());

type Pact = { consumer: { name: string }; interactions: { description: string; providerStates?: { name: string }[] }[] };
const states = (pact: Pact) => pact.interactions.map((i) => i.providerStates?.[0]?.name);

describe('GET /__sandbox/pact', () => {
  it('records the workspace X-Sandbox-Key names, for the consumer named', async () => {
    const a = await ctl('GET', '/pact?consumer=web%20app', { key: 'key-a' });
    expect(a.status).toBe(200);
    expect(pactV4Problems(a.body)).toEqual([]);
    expect((a.body as Pact).consumer).toEqual({ name: 'web app' });
    expect(states(a.body as Pact)).toEqual(['a pet with id 3 exists', 'no pet with id 999 exists']);
    const b = await ctl('GET', '/pact?consumer=web', { key: 'key-b' });
    expect(states(b.body as Pact)).toEqual(['pets with status sold exist']);
  });

  it('adds the 401s of requests without a valid key when asked', async () => {
    const res = await ctl('GET', '/pact?consumer=web&unauthenticated=true', { key: 'key-b' });
    expect(states(res.body as Pact)).toEqual(['pets with status sold exist', 'the request has no valid API key']);
  });

  it('is a pact without interactions for a workspace that was sent nothing', async () => {
    await ctl('DELETE', '/journal', { key: 'key-b' });
    expect((await ctl('GET', '/pact?consumer=web', { key: 'key-b' })).body.interactions).toEqual([]);
  });

  it('needs a consumer name, and the admin token', async () => {
    const none = await ctl('GET', '/pact');
    expect(none.status).toBe(400);
    expect(none.body.message).toContain("'consumer'");
    expect((await ctl('GET', '/pact?consumer=a/b')).status).toBe(400);
    expect((await ctl('GET', '/pact?consumer=web', { token: 'key-a' })).status).toBe(403);
    expect((await ctl('GET', '/pact?consumer=web', { token: null })).status).toBe(401);
  });
});

describe('petstore-sandbox pact', { timeout: 60_000 }, () => {
  const cli = (...args: string[]) => runCli(['pact', ...args, '--url', sb.origin, '--key', 'key-a']);

  it('writes the pact to a file, or prints it', async () => {
    const file = join(tempDir(), 'web-pet-store-api.json');
    const written = await cli('--consumer', 'web', file);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    const pact = JSON.parse(readFileSync(file, 'utf8')) as Pact;
    expect(pactV4Problems(pact)).toEqual([]);
    expect(states(pact)).toEqual(['a pet with id 3 exists', 'no pet with id 999 exists']);
    const printed = await cli('--consumer', 'web', '--unauthenticated');
    expect(states(JSON.parse(printed.stdout) as Pact)).toContain('the request has no valid API key');
  });

  it('needs --consumer (exit 2)', async () => {
    const res = await cli();
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Usage: pact --consumer <name>');
  });
});
