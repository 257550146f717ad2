/** Recording a pact from journal entries, without HTTP: which entries become interactions, and how. */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/store/journal/types.js';
import { firstElement } from '../../../src/control/pact-bodies.js';
import { recordPact } from '../../../src/control/pact-record.js';
import { pactV4Problems } from '../../support/pact-v4.js';

const pet = (id: number, status?: string) => ({ id, name: `Pet ${id}`, categoryId: 2, ...(status ? { status } : {}) });
const error = (status: number, code: string, message = 'x') => ({ code, message, status });

/** A journal entry as the control plane shows it. */
function entry(method: string, url: string, operationId: string | null, status: number, responseBody: unknown, more: Partial<JournalEntry> = {}): JournalEntry {
  const [path, qs] = url.split('?') as [string, string | undefined];
  return {
    time: '2026-01-05T10:00:00.000Z',
    method,
    path,
    query: Object.fromEntries(new URLSearchParams(qs ?? '')),
    operationId,
    status,
    durationMs: 1,
    requestBody: null,
    responseBody,
    specValid: true,
    ...more,
  };
}

const record = (entries: JournalEntry[], unauthenticated: JournalEntry[] = []) => recordPact({ consumer: 'web', entries, unauthenticated, version: '1.0.0' });
const only = (entries: JournalEntry[], unauthenticated: JournalEntry[] = []) => {
  const { interactions } = record(entries, unauthenticated);
  expect(interactions).toHaveLength(1);
  return interactions[0] as (typeof interactions)[number];
};

describe('which entries become interactions', () => {
  it('one per operation, status and request shape: the first of each', () => {
    const pact = record([
      entry('GET', '/v1/pets/3', 'getPet', 200, pet(3, 'sold')),
      entry('GET', '/v1/pets/4', 'getPet', 200, pet(4)),
      entry('GET', '/v1/pets/5', 'getPet', 404, error(404, 'not_found')),
      entry('POST', '/v1/pets', 'createPet', 400, error(400, 'invalid_request'), { requestBody: { categoryId: 1 } }),
      entry('POST', '/v1/pets', 'createPet', 400, error(400, 'invalid_request'), { requestBody: { categoryId: 2 } }),
      entry('POST', '/v1/pets', 'createPet', 400, error(400, 'invalid_request'), { requestBody: { name: 1, categoryId: 2 } }),
      entry('GET', '/v1/pets?limit=2', 'listPets', 200, [pet(1)]),
      entry('GET', '/v1/pets?limit=9', 'listPets', 200, [pet(1)]),
      entry('GET', '/v1/pets?status=sold', 'listPets', 200, [pet(3, 'sold')]),
    ]);
    expect(pactV4Problems(pact)).toEqual([]);
    expect(pact.interactions.map((i) => i.description)).toEqual([
      'createPet 400: POST /v1/pets with {categoryId:number,name:number}',
      'createPet 400: POST /v1/pets with {categoryId:number}',
      'getPet 200: GET /v1/pets/3',
      'getPet 404: GET /v1/pets/5',
      'listPets 200: GET /v1/pets?limit=2',
      'listPets 200: GET /v1/pets?status=sold',
    ]);
  });

  it.each([
    ['an answer the spec does not document', entry('GET', '/v1/pets', 'listPets', 503, error(503, 'service_unavailable'), { specValid: false })],
    ['a request that matched no operation', entry('GET', '/v1/cats', null, 404, error(404, 'not_found'))],
    ...(['405', '501'] as const).map((status): [string, JournalEntry] => [
      `a ${status} to a request outside the interface, as journalled`,
      entry(status === '405' ? 'DELETE' : 'GET', status === '405' ? '/v1/pets' : '/v1/store/orders', null, Number(status), error(Number(status), 'x'), {
        specValid: false,
        specIssues: [{ in: 'operation', name: '', message: 'no operation of the spec matches the request' }],
      }),
    ]),
    ['a 401 with a valid key (a fault, Prefer, a provider state)', entry('GET', '/v1/pets', 'listPets', 401, error(401, 'unauthorized'))],
    [
      'an error a fault forced',
      entry('GET', '/v1/pets/1', 'getPet', 404, error(404, 'not_found', 'Fault injected by the sandbox (fault 1): getPet answers 404.')),
    ],
    [
      'a request body not kept whole',
      entry('POST', '/v1/pets', 'createPet', 400, error(400, 'x'), { requestBody: { truncated: true, size: 9000, text: '{"name":"' } }),
    ],
    ['a pet too long to keep', entry('GET', '/v1/pets/1', 'getPet', 200, { truncated: true, size: 9000, text: '{"id":1,"name":"' })],
  ])('leaves out %s', (_case, e) => {
    expect(record([e]).interactions).toEqual([]);
  });

  it('takes 401s only from requests without a valid key, with no Authorization header', () => {
    const i = only([], [entry('GET', '/v1/pets', 'listPets', 401, error(401, 'unauthorized')), entry('GET', '/v1/pets', 'listPets', 200, [])]);
    expect(i.providerStates).toEqual([{ name: 'the request has no valid API key' }]);
    expect(i.request.headers).toBeUndefined();
    expect(i.response.headers).toEqual({ 'Content-Type': ['application/json'], 'WWW-Authenticate': ['Bearer'] });
  });

  it('gives the same file for the same traffic', () => {
    const traffic = [entry('GET', '/v1/pets/3', 'getPet', 200, pet(3)), entry('GET', '/v1/pets/9', 'getPet', 404, error(404, 'not_found'))];
    expect(JSON.stringify(record(traffic))).toBe(JSON.stringify(record([...traffic].reverse())));
  });
});

describe('requests', () => {
  it('carry a placeholder key with a matcher for any bearer token, the query and the JSON body as sent', () => {
    const i = only([entry('POST', '/v1/pets?x=1', 'createPet', 201, pet(51, 'sold'), { requestBody: { name: 'Pet 51', categoryId: 2, status: 'sold' } })]);
    expect(i.request).toEqual({
      method: 'POST',
      path: '/v1/pets',
      query: { x: ['1'] },
      headers: { Authorization: ['Bearer sandbox-key'], 'Content-Type': ['application/json'] },
      body: { content: { name: 'Pet 51', categoryId: 2, status: 'sold' }, contentType: 'application/json', encoded: false },
      matchingRules: { header: { Authorization: { combine: 'AND', matchers: [{ match: 'regex', regex: '^Bearer [A-Za-z0-9\\-._~+/]+=*$' }] } } },
    });
    // The created pet's fields are what was sent; only its id is the provider's.
    expect(i.response.matchingRules).toEqual({ body: { '$.id': { combine: 'AND', matchers: [{ match: 'integer' }] } } });
  });
});

describe('provider states and matching rules', () => {
  it('getPet 200: the pet with its id, set up with its fields; the id exact, the rest by type', () => {
    const i = only([entry('GET', '/v1/pets/12', 'getPet', 200, pet(12))]);
    expect(i.providerStates).toEqual([{ name: 'a pet with id 12 exists', params: { id: 12, name: 'Pet 12', categoryId: 2, status: null } }]);
    expect(Object.keys(i.response.matchingRules?.body ?? {})).toEqual(['$.name', '$.categoryId', '$.status']);
  });

  it.each([
    ['/v1/pets/999', [{ name: 'no pet with id 999 exists', params: { id: 999 } }]],
    ['/v1/pets/abc', [{ name: 'no pets exist' }]],
  ])('getPet 404 for %s', (path, states) => {
    const i = only([entry('GET', path, 'getPet', 404, error(404, 'not_found'))]);
    expect(i.providerStates).toEqual(states);
    expect(i.response.matchingRules?.body).toEqual({
      '$.code': { combine: 'AND', matchers: [{ match: 'type' }] },
      '$.message': { combine: 'AND', matchers: [{ match: 'type' }] },
    });
  });

  it('a filtered list: pets of that status, each like the first, at most `limit`, the status exact', () => {
    const i = only([entry('GET', '/v1/pets?status=pending&limit=4', 'listPets', 200, [pet(2, 'pending'), pet(7, 'pending')])]);
    expect(i.providerStates).toEqual([{ name: 'pets with status pending exist', params: { status: 'pending' } }]);
    expect(i.response.body.content).toEqual([pet(2, 'pending')]);
    expect(i.response.matchingRules?.body).toMatchObject({
      $: { matchers: [{ match: 'type', min: 1, max: 4 }] },
      '$[*].id': { matchers: [{ match: 'integer' }] },
      '$[*].status': { matchers: [{ match: 'equality' }] },
    });
  });

  it('an unfiltered list: a state with pets, and no status in the example (a pet may have none)', () => {
    const i = only([entry('GET', '/v1/pets', 'listPets', 200, [pet(1, 'sold'), pet(2)])]);
    expect(i.providerStates).toEqual([{ name: 'pets with status sold exist', params: { status: 'sold' } }]);
    expect(i.response.body.content).toEqual([{ id: 1, name: 'Pet 1', categoryId: 2 }]);
    expect(i.response.matchingRules?.body?.['$']).toEqual({ combine: 'AND', matchers: [{ match: 'type', min: 1 }] });
  });

  it('an empty list: no pets exist, and exactly []', () => {
    const i = only([entry('GET', '/v1/pets?status=sold', 'listPets', 200, [])]);
    expect(i.providerStates).toEqual([{ name: 'no pets exist' }]);
    expect(i.response.body.content).toEqual([]);
    expect(i.response.matchingRules).toBeUndefined();
  });

  it('a list too long for the journal: its first pet, read from the kept text', () => {
    const pets = Array.from({ length: 100 }, (_, k) => pet(k + 1, 'sold'));
    const text = JSON.stringify(pets).slice(0, 4096);
    const i = only([entry('GET', '/v1/pets?limit=100&status=sold', 'listPets', 200, { truncated: true, size: 9000, text })]);
    expect(i.response.body.content).toEqual([pet(1, 'sold')]);
  });
});

describe('firstElement', () => {
  it.each([
    ['[{"id":1,"name":"a } ] \\" {"},{"id":2', { id: 1, name: 'a } ] " {' }],
    ['[{"id":1,"tags":[1,[2]]},', { id: 1, tags: [1, [2]] }],
    ['[{"id":1,"name":"cut here', undefined],
    ['[', undefined],
  ])('%s', (text, expected) => {
    expect(firstElement(text)).toEqual(expected);
  });
});
