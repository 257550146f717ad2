/**
 * Consumer side of the Pact contract: the frontend's client
 * (contracts/consumer/pet-store-client.ts) runs against Pact's mock server,
 * and Pact writes what it sends and relies on to a temporary folder. The last
 * test compares that pact with the committed one in contracts/pacts (which
 * the provider verification replays), so a change to the consumer's
 * expectations fails until `npm run pacts:update` commits it: a test run
 * never rewrites a tracked file.
 */
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPetStoreClient, PetStoreError } from '../../contracts/consumer/pet-store-client.js';
import { normalisePact, PACTS_DIR, PROVIDER } from '../../contracts/pact-files.js';

process.env.PACT_DO_NOT_TRACK = 'true';
const { equal, eachLike, integer, regex, string } = MatchersV3;

const CONSUMER = 'pet-store-web';
const FILE = `${CONSUMER}-${PROVIDER}.json`;
const COMMITTED = join(PACTS_DIR, FILE);
/** Set by `npm run pacts:update`: the generated pact replaces the committed one instead of being compared. */
const UPDATE = process.env.PACTS_UPDATE === '1';
// A fresh folder per run: Pact merges into an existing file, so no stale interaction survives.
const outDir = mkdtempSync(join(tmpdir(), 'pacts-'));
const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir: outDir, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'warn' });

const JSON_TYPE = { 'Content-Type': 'application/json' };
const WITH_KEY = { Authorization: regex(/^Bearer [A-Za-z0-9\-._~+/]+=*$/, 'Bearer sandbox-key'), Accept: 'application/json' };
const clientFor = (url: string, apiKey: string | undefined = 'consumer-test-key') => createPetStoreClient({ baseUrl: `${url}/v1`, apiKey });
const errorBody = (status: number, code: string, message: string) => ({ code: string(code), message: string(message), status: equal(status) });

describe('pet-store-web consumer contract', () => {
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('lists only sold pets, at most 10', async () => {
    await pact
      .addInteraction()
      .given('pets with status sold exist', { status: 'sold' })
      .uponReceiving('a request for at most 10 sold pets')
      .withRequest('GET', '/v1/pets', (b) => b.query({ status: 'sold', limit: '10' }).headers(WITH_KEY))
      .willRespondWith(200, (b) =>
        b.headers(JSON_TYPE).jsonBody(eachLike({ id: integer(3), name: string('Polly'), categoryId: integer(3), status: equal('sold') })),
      )
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
        const error = await clientFor(mock.url)
          .createPet({ categoryId: 1 } as never)
          .catch((e: unknown) => e);
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
      .willRespondWith(200, (b) =>
        b.headers(JSON_TYPE).jsonBody({ id: 7, name: string('Rex'), categoryId: integer(1), status: regex(/^(available|pending|sold)$/, 'available') }),
      )
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
        const error = await clientFor(mock.url)
          .getPet(999)
          .catch((e: unknown) => e);
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
      .willRespondWith(401, (b) =>
        b
          .headers({ ...JSON_TYPE, 'WWW-Authenticate': 'Bearer' })
          .jsonBody(errorBody(401, 'unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>.')),
      )
      .executeTest(async (mock) => {
        const error = await clientFor(mock.url, undefined)
          .listPets()
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'PetStoreError', status: 401, code: 'unauthorized' });
      });
  });

  // Last in this suite: the pact is complete only when every interaction above passed (Pact writes an interaction only then).
  it(UPDATE ? 'updates the committed pact' : 'generates exactly the committed pact (npm run pacts:update changes it)', ({ task }) => {
    const interactions = (task.suite?.tasks ?? []).filter((t) => t !== task);
    expect(
      interactions.map((t) => `${t.name}: ${t.result?.state}`),
      'every interaction must pass before the pact is compared',
    ).toEqual(interactions.map((t) => `${t.name}: pass`));
    const generated = join(outDir, FILE);
    if (UPDATE) {
      // Copied next to its final name, then renamed: atomic on the same file system.
      copyFileSync(generated, `${COMMITTED}.tmp`);
      renameSync(`${COMMITTED}.tmp`, COMMITTED);
      return;
    }
    expect(
      normalisePact(readFileSync(generated, 'utf8')),
      `${COMMITTED} is not what the consumer tests generate: run npm run pacts:update and commit it`,
    ).toEqual(normalisePact(readFileSync(COMMITTED, 'utf8')));
  });
});

describe('comparing a generated pact with the committed one', () => {
  interface Pact {
    metadata: Record<string, { version?: string; ffi?: string }>;
    interactions: { description: string; providerStates?: { name: string }[]; response: { status: number } }[];
  }
  const committed = readFileSync(COMMITTED, 'utf8');
  const edited = (edit: (pact: Pact) => void, indent?: number) => {
    const pact = JSON.parse(committed) as Pact;
    edit(pact);
    return JSON.stringify(pact, undefined, indent);
  };
  const same = (text: string) => expect(normalisePact(text)).toEqual(normalisePact(committed));
  const differs = (text: string) => expect(normalisePact(text)).not.toEqual(normalisePact(committed));

  it('ignores the versions of the Pact libraries, whitespace, key order and the order of interactions', () => {
    same(
      edited((pact) => {
        pact.metadata['pact-js'] = { version: '99.0.0' };
        pact.metadata.pactRust = { ffi: '9.9.9' };
      }),
    );
    same(edited(() => {}, 4));
    same(edited((pact) => pact.interactions.reverse()));
  });

  it('sees every change to what the pact promises', () => {
    differs(edited((pact) => (pact.metadata.pactSpecification = { version: '3.0.0' })));
    differs(edited((pact) => pact.interactions.pop()));
    differs(edited((pact) => ((pact.interactions[0] as (typeof pact.interactions)[number]).response.status = 201)));
    differs(edited((pact) => ((pact.interactions[0] as (typeof pact.interactions)[number]).providerStates = [{ name: 'no pets exist' }])));
  });
});
