/**
 * Consumer side of the Pact contract: the frontend's client
 * (contracts/consumer/pet-store-client.ts) runs against Pact's mock server,
 * and what it sends and relies on becomes contracts/pacts/<consumer>-<provider>.json.
 * Runs alone (npm run test:contract): the provider verification reads that file.
 */
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPetStoreClient, PetStoreError } from '../../contracts/consumer/pet-store-client.js';
import { PACTS_DIR, PROVIDER } from '../../contracts/pact-files.js';

process.env.PACT_DO_NOT_TRACK = 'true';
const { equal, eachLike, integer, like, regex, string } = MatchersV3;

const CONSUMER = 'pet-store-web';
const FILE = `${CONSUMER}-${PROVIDER}.json`;
// Written to a fresh folder and moved into contracts/pacts only when every
// interaction passed: no stale interaction survives, and a verification
// reading contracts/pacts never sees a half-written file.
const outDir = mkdtempSync(join(tmpdir(), 'pacts-'));
const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir: outDir, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'warn' });

const JSON_TYPE = { 'Content-Type': 'application/json' };
const WITH_KEY = { Authorization: regex(/^Bearer [A-Za-z0-9\-._~+/]+=*$/, 'Bearer sandbox-key'), Accept: 'application/json' };
const clientFor = (url: string, apiKey: string | undefined = 'consumer-test-key') => createPetStoreClient({ baseUrl: `${url}/v1`, apiKey });
const errorBody = (status: number, code: string, message: string) => ({ code: string(code), message: string(message), status: equal(status) });

describe('pet-store-web consumer contract', () => {
  // eslint-disable-next-line no-empty-pattern -- vitest passes the suite second and requires a destructured first argument
  afterAll(({}, suite) => {
    const passed = suite.tasks.length > 0 && suite.tasks.every((task) => task.result?.state === 'pass');
    if (passed) {
      // Copied next to its final name, then renamed: atomic on the same file system.
      copyFileSync(join(outDir, FILE), join(PACTS_DIR, `${FILE}.tmp`));
      renameSync(join(PACTS_DIR, `${FILE}.tmp`), join(PACTS_DIR, FILE));
    }
    rmSync(outDir, { recursive: true, force: true });
  });

  it('lists only sold pets, at most 10', async () => {
    await pact
      .addInteraction()
      .given('pets with status sold exist', { status: 'sold' })
      .uponReceiving('a request for at most 10 sold pets')
      .withRequest('GET', '/v1/pets', (b) => b.query({ status: 'sold', limit: '10' }).headers(WITH_KEY))
      .willRespondWith(200, (b) => b.headers(JSON_TYPE).jsonBody(eachLike({ id: integer(3), name: string('Polly'), categoryId: integer(3), status: equal('sold') })))
      .executeTest(async (mock) => {
        const pets = await clientFor(mock.url).listPets({ status: 'sold', limit: 10 });
        expect(pets.length).toBeGreaterThan(0);
        for (const pet of pets) expect(pet.status).toBe('sold');
      });
  });

  it('lists nothing from an empty store', async () => {
    await pact
      .addInteraction()
      .given('no pets exist')
      .uponReceiving('a request for pets when there are none')
      .withRequest('GET', '/v1/pets', (b) => b.headers(WITH_KEY))
      .willRespondWith(200, (b) => b.headers(JSON_TYPE).jsonBody([]))
      .executeTest(async (mock) => {
        expect(await clientFor(mock.url).listPets()).toEqual([]);
      });
  });

  it('creates a pet and gets its assigned id', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a request to add a dog')
      .withRequest('POST', '/v1/pets', (b) => b.headers({ ...WITH_KEY, ...JSON_TYPE }).jsonBody({ name: 'Rex', categoryId: 1, status: 'available' }))
      .willRespondWith(201, (b) => b.headers(JSON_TYPE).jsonBody({ id: integer(51), name: 'Rex', categoryId: 1, status: 'available' }))
      .executeTest(async (mock) => {
        const pet = await clientFor(mock.url).createPet({ name: 'Rex', categoryId: 1, status: 'available' });
        expect(pet).toEqual({ id: 51, name: 'Rex', categoryId: 1, status: 'available' });
      });
  });

  it('gets the Error body when a required field is missing', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a request to add a pet without a name')
      .withRequest('POST', '/v1/pets', (b) => b.headers({ ...WITH_KEY, ...JSON_TYPE }).jsonBody({ categoryId: 1 }))
      .willRespondWith(400, (b) => b.headers(JSON_TYPE).jsonBody(errorBody(400, 'invalid_request', "Request body must have required property 'name'.")))
      .executeTest(async (mock) => {
        const error = await clientFor(mock.url).createPet({ categoryId: 1 } as never).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PetStoreError);
        expect(error).toMatchObject({ status: 400, code: 'invalid_request', body: { status: 400 } });
      });
  });

  it('gets a pet by id', async () => {
    await pact
      .addInteraction()
      .given('a pet with id 7 exists', { id: 7 })
      .uponReceiving('a request for pet 7')
      .withRequest('GET', '/v1/pets/7', (b) => b.headers(WITH_KEY))
      .willRespondWith(200, (b) => b.headers(JSON_TYPE).jsonBody({ id: 7, name: string('Rex'), categoryId: integer(1), status: regex(/^(available|pending|sold)$/, 'available') }))
      .executeTest(async (mock) => {
        const pet = await clientFor(mock.url).getPet(7);
        expect(pet).toMatchObject({ id: 7, name: 'Rex' });
      });
  });

  it('gets a typed not_found error for an unknown id', async () => {
    await pact
      .addInteraction()
      .given('no pet with id 999 exists', { id: 999 })
      .uponReceiving('a request for pet 999, which does not exist')
      .withRequest('GET', '/v1/pets/999', (b) => b.headers(WITH_KEY))
      .willRespondWith(404, (b) => b.headers(JSON_TYPE).jsonBody(errorBody(404, 'not_found', 'No pet with id 999.')))
      .executeTest(async (mock) => {
        const error = await clientFor(mock.url).getPet(999).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PetStoreError);
        expect(error).toMatchObject({ status: 404, code: 'not_found' });
      });
  });

  it('gets a typed unauthorized error without a valid key', async () => {
    await pact
      .addInteraction()
      .given('the request has no valid API key')
      .uponReceiving('a request for pets without an API key')
      .withRequest('GET', '/v1/pets', (b) => b.headers({ Accept: 'application/json' }))
      .willRespondWith(401, (b) => b.headers({ ...JSON_TYPE, 'WWW-Authenticate': 'Bearer' }).jsonBody(errorBody(401, 'unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>.')))
      .executeTest(async (mock) => {
        const error = await clientFor(mock.url, undefined).listPets().catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'PetStoreError', status: 401, code: 'unauthorized' });
      });
  });
});
