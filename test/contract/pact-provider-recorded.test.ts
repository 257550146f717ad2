/**
 * Pacts recorded from real traffic: the example consumer client drives a
 * sandbox, the sandbox turns its journal into a pact
 * (`GET /__sandbox/pact`), and pact-js's Verifier holds that pact against a
 * fresh sandbox with other data and another key (it passes) and against the
 * deliberately broken Pet Store (it fails, on what is broken).
 */
import { Verifier } from '@pact-foundation/pact';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetStoreClient, type PetStoreClient } from '../../contracts/consumer/pet-store-client.js';
import { PROVIDER } from '../../contracts/pact-files.js';
import { startBrokenServer, type BrokenServer } from '../support/broken-server.js';
import { clientOf } from '../support/control-client.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { pactV4Problems } from '../support/pact-v4.js';

process.env.PACT_DO_NOT_TRACK = 'true';

const TEAM_KEY = 'web-team-secret-key';
const CI_KEY = 'ci-job-key';

interface Interaction {
  description: string;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
  request: { method: string; path: string; headers?: Record<string, string[]> };
  response: { status: number };
}

let recorded: TestSandbox;
let fresh: TestSandbox;
let broken: BrokenServer;
let scratch: string;
let file: string;
let text: string;

/** What a frontend does in a day, through the team's own client: reads, a create, mistakes, an expired session. */
async function driveTheApp(client: PetStoreClient, anonymous: PetStoreClient): Promise<void> {
  const sold = await client.listPets({ status: 'sold', limit: 5 });
  await client.listPets({ status: 'pending', limit: 3 });
  const all = await client.listPets();
  await client.getPet((sold[0] ?? all[0])?.id as number);
  await client.getPet((all[1] ?? all[0])?.id as number);
  await client.getPet(999_999).catch(() => undefined);
  await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
  await client.createPet({ name: 'Bubbles', categoryId: 4 });
  await client.createPet({ categoryId: 1 } as never).catch(() => undefined);
  await anonymous.listPets().catch(() => undefined);
}

beforeAll(async () => {
  [recorded, fresh, broken] = await Promise.all([
    startTestSandbox(['--api-keys', TEAM_KEY, '--seed', '7']),
    startTestSandbox(['--api-keys', CI_KEY, '--seed', '99', '--count', '3']),
    startBrokenServer(),
  ]);
  scratch = mkdtempSync(join(tmpdir(), 'pacts-'));
  const baseUrl = recorded.baseUrl;
  await driveTheApp(createPetStoreClient({ baseUrl, apiKey: TEAM_KEY }), createPetStoreClient({ baseUrl }));
  text = await clientOf(recorded, TEAM_KEY).text('exportPact', { query: { consumer: 'pet-store-web-recorded', unauthenticated: true } });
  file = join(scratch, `pet-store-web-recorded-${PROVIDER}.json`);
  writeFileSync(file, text);
}, 60_000);

afterAll(async () => {
  await Promise.all([recorded?.stop(), fresh?.stop(), broken?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

const interactions = () => (JSON.parse(text) as { interactions: Interaction[] }).interactions;

describe('a pact recorded from the journal', () => {
  it('is a Pact V4 file for the consumer and pet-store-api', () => {
    const pact = JSON.parse(text) as { consumer: unknown; provider: unknown; metadata: { pactSpecification: unknown } };
    expect(pactV4Problems(pact)).toEqual([]);
    expect(pact.consumer).toEqual({ name: 'pet-store-web-recorded' });
    expect(pact.provider).toEqual({ name: 'pet-store-api' });
    expect(pact.metadata.pactSpecification).toEqual({ version: '4.0' });
  });

  it('has one interaction per distinct operation, status and request shape, each with the state it needed', () => {
    const summary = interactions().map((i) => [i.request.method, i.response.status, (i.providerStates ?? []).map((s) => s.name.replace(/\d+/g, 'N'))]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['GET', 200, ['pets with status sold exist']],
        ['GET', 200, ['pets with status available exist']],
        ['GET', 200, ['a pet with id N exists']],
        ['GET', 404, ['no pet with id N exists']],
        ['POST', 201, []],
        ['POST', 400, []],
        ['GET', 401, ['the request has no valid API key']],
      ]),
    );
    // Two gets of a pet, and the sold and pending lists, are one shape each.
    expect(summary).toHaveLength(8);
    expect(interactions().find((i) => i.response.status === 404)?.providerStates).toEqual([{ name: 'no pet with id 999999 exists', params: { id: 999999 } }]);
  });

  it('never holds the real API key: a placeholder with a matcher for any bearer token, none on the 401', () => {
    expect(text).not.toContain(TEAM_KEY);
    for (const i of interactions()) {
      expect(i.request.headers?.Authorization).toEqual(i.response.status === 401 ? undefined : ['Bearer sandbox-key']);
    }
  });

  it('holds against a fresh sandbox with other data and another key, states set through its endpoint', async () => {
    await new Verifier({
      provider: PROVIDER,
      providerBaseUrl: fresh.origin,
      pactUrls: [file],
      providerStatesSetupUrl: `${fresh.origin}/__sandbox/provider-states`,
      customProviderHeaders: { Authorization: `Bearer ${CI_KEY}` },
      logLevel: 'error',
    }).verifyProvider();
  }, 120_000);

  it('fails against the broken Pet Store, on the interactions it breaks', async () => {
    // The broken server has no state endpoint: every state is accepted and does nothing, so only its answers can fail.
    const names = [...new Set(interactions().flatMap((i) => (i.providerStates ?? []).map((s) => s.name)))];
    const failure = await new Verifier({
      provider: PROVIDER,
      providerBaseUrl: broken.baseUrl.replace(/\/v1$/, ''),
      pactUrls: [file],
      stateHandlers: Object.fromEntries(names.map((name) => [name, () => Promise.resolve(undefined)])),
      logLevel: 'error',
    })
      .verifyProvider()
      .then(
        () => undefined,
        (error: unknown) => String((error as Error).message ?? error),
      );
    expect(failure, 'the broken Pet Store must fail the recorded pact').toBeDefined();
    const failed = interactions()
      .filter((i) => (failure as string).includes(JSON.stringify(i.description).slice(1, -1)))
      .map((i) => `${i.request.method} ${i.response.status}`);
    // listPets 200 (id a string), createPet 201 (no id), createPet 400 (answers 422), getPet 404 (answers 200), listPets 401 (status 403).
    expect(failed).toEqual(expect.arrayContaining(['GET 200', 'POST 201', 'POST 400', 'GET 404', 'GET 401']));
  }, 120_000);
});
