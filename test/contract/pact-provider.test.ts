/**
 * Provider side of the Pact contract: every committed pact file in
 * contracts/pacts is replayed against a real stateful sandbox, each provider
 * state set up through its control plane. The consumer tests never write
 * there (they compare), so the two may run side by side.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPactFiles } from '../../contracts/pact-files.js';
import { verifyPacts } from '../../contracts/provider/verify-pacts.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

process.env.PACT_DO_NOT_TRACK = 'true';

// Not the key recorded in the pact ('sandbox-key'): the request filter must put the real one in.
const KEY = 'provider-verification-key';

let sb: TestSandbox;
let scratch: string;
beforeAll(async () => {
  sb = await startTestSandbox(['--api-keys', KEY]);
  scratch = mkdtempSync(join(tmpdir(), 'pacts-'));
});
afterAll(async () => {
  await sb.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const verify = (pactFiles?: string[]) => verifyPacts({ target: sb.baseUrl, key: KEY, adminUrl: sb.origin, pactFiles, logLevel: 'error' });

interface PactJson {
  interactions: { description: string; providerStates?: { name: string; params?: Record<string, unknown> }[]; response: { body?: { content?: unknown } } }[];
}

/** A copy of the committed pact with one interaction changed, to show verification fails. */
function alteredPact(name: string, change: (pact: PactJson) => void): string {
  const [file] = listPactFiles().filter((f) => f.endsWith('pet-store-web-pet-store-api.json'));
  if (!file) throw new Error('contracts/pacts/pet-store-web-pet-store-api.json is missing: npm run pacts:update writes it');
  const pact = JSON.parse(readFileSync(file, 'utf8')) as PactJson;
  change(pact);
  const out = join(scratch, name);
  writeFileSync(out, JSON.stringify(pact));
  return out;
}

const interaction = (pact: PactJson, description: string) => {
  const found = pact.interactions.find((i) => i.description === description);
  if (!found) throw new Error(`No interaction '${description}'`);
  return found;
};

describe('Pact provider verification against the stateful sandbox', () => {
  it('honours every interaction of every pact file in contracts/pacts', async () => {
    const summary = await verify();
    expect(summary.consumers).toContain('pet-store-web');
    expect(summary.interactions).toBeGreaterThanOrEqual(7);
  }, 120_000);

  it('fails when the provider answers differently from what a consumer relies on', async () => {
    const file = alteredPact('wrong-name.json', (pact) => {
      (interaction(pact, 'a request to add a dog').response.body as { content: { name: string } }).content.name = 'Rexy';
    });
    await expect(verify([file])).rejects.toThrow(/verification failed/);
  }, 120_000);

  it('fails an interaction whose provider state it does not know', async () => {
    const file = alteredPact('unknown-state.json', (pact) => {
      interaction(pact, 'a request for pet 7').providerStates = [{ name: 'a unicorn with id 7 exists' }];
    });
    await expect(verify([file])).rejects.toThrow(/unknown provider state 'a unicorn with id 7 exists'/);
  }, 120_000);
});
