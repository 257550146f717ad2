/**
 * The state-change endpoint as a team on any stack uses it: pact-js's
 * Verifier with nothing of this repository's code, only
 * `providerStatesSetupUrl` pointing at `POST /__sandbox/provider-states` and
 * the API key as a custom header (the Rust core sends it to /v1 and to the
 * endpoint alike). No state handlers, no request filter, no admin token.
 */
import { Verifier } from '@pact-foundation/pact';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listPactFiles, PROVIDER } from '../../contracts/pact-files.js';
import { clientOf } from '../support/control-client.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

process.env.PACT_DO_NOT_TRACK = 'true';

// Not the key written in the pacts ('sandbox-key'): the custom header must replace it.
const KEY = 'ci-job-key';
const INJECTED = new URL('./fixtures/pet-store-injected-pet-store-api.json', import.meta.url).pathname;

let sb: TestSandbox;
let scratch: string;
beforeAll(async () => {
  sb = await startTestSandbox(['--api-keys', KEY]);
  scratch = mkdtempSync(join(tmpdir(), 'pacts-'));
});
beforeEach(async () => {
  await clientOf(sb, KEY).call('clearJournal');
});
afterAll(async () => {
  await sb.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const verify = (pactUrls: string[]) =>
  new Verifier({
    provider: PROVIDER,
    providerBaseUrl: sb.origin,
    pactUrls,
    providerStatesSetupUrl: `${sb.origin}/__sandbox/provider-states`,
    customProviderHeaders: { Authorization: `Bearer ${KEY}` },
    logLevel: 'error',
  }).verifyProvider();

/** What the verification sent to /v1 and got, from the workspace's journal. */
async function sent(): Promise<string[]> {
  const control = clientOf(sb, KEY);
  const { entries } = await control.call('readJournal');
  return entries.map((e) => `${e.method} ${e.path} ${e.status}`);
}

describe('pact-js Verifier with providerStatesSetupUrl and no state handlers', () => {
  it('verifies the committed pact, each state set up by the endpoint in the key’s workspace', async () => {
    const [committed] = listPactFiles().filter((f) => f.endsWith('pet-store-web-pet-store-api.json'));
    await verify([committed as string]);
    const requests = await sent();
    // Only the states make these answers: pet 7 loaded, 999 absent, an empty list, the key refused once.
    expect(requests).toEqual(
      expect.arrayContaining(['GET /v1/pets/7 200', 'GET /v1/pets/999 404', 'GET /v1/pets 200', 'GET /v1/pets 401', 'POST /v1/pets 201', 'POST /v1/pets 400']),
    );
    // The refusal of 'the request has no valid API key' did not outlive its interaction.
    expect((await clientOf(sb, KEY).call('listFaults')).faults).toEqual([]);
  }, 120_000);

  it('injects the values the endpoint answers into a pact that uses fromProviderState', async () => {
    await verify([INJECTED]);
    const requests = await sent();
    // The consumer wrote /v1/pets/7 and /v1/pets/8 as examples; the provider's values replaced them.
    expect(requests).toEqual(expect.arrayContaining(['GET /v1/pets/42 200', 'GET /v1/pets/999 404']));
    expect(requests.some((r) => r.startsWith('GET /v1/pets/7 ') || r.startsWith('GET /v1/pets/8 '))).toBe(false);
  }, 120_000);

  it('fails the same pact when the values are not injected (so the injection is what passed it)', async () => {
    const pact = JSON.parse(readFileSync(INJECTED, 'utf8')) as { interactions: { request: { generators?: unknown } }[] };
    for (const interaction of pact.interactions) delete interaction.request.generators;
    const file = join(scratch, 'not-injected.json');
    writeFileSync(file, JSON.stringify(pact));
    await expect(verify([file])).rejects.toThrow();
    expect(await sent()).toEqual(expect.arrayContaining(['GET /v1/pets/7 404']));
  }, 120_000);

  it('fails an interaction whose state the sandbox does not know: the endpoint answers 400', async () => {
    const pact = JSON.parse(readFileSync(INJECTED, 'utf8')) as { interactions: { providerStates: { name: string }[] }[] };
    for (const interaction of pact.interactions) interaction.providerStates = [{ name: 'a unicorn with id 42 exists' }];
    const file = join(scratch, 'unknown-state.json');
    writeFileSync(file, JSON.stringify(pact));
    await expect(verify([file])).rejects.toThrow();
    expect(await sent()).toEqual([]);
  }, 120_000);
});
