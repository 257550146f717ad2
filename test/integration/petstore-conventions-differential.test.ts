/**
 * The Pet Store's behaviour falls out of the REST conventions: the embedded
 * spec's three operations served by convention (the spec with its
 * operationIds renamed, so that nothing recognises them as the Pet Store's)
 * and by the Pet Store's own stateful mode answer the same request
 * sequences alike, status, body and the headers a client reads, from the
 * same empty start. What differs is a Pet Store rule, named in
 * docs/own-spec.md ("The Pet Store's rules") and checked apart here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';

type Json = Record<string, unknown>;

const EMBEDDED = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
const RENAMED: Record<string, string> = { listPets: 'listAnimals', createPet: 'addAnimal', getPet: 'readAnimal' };

/** The embedded spec with other operationIds: the same interface, no longer the Pet Store's to the sandbox. */
function renamedSpec(): Json {
  const document = parse(readFileSync(EMBEDDED, 'utf8')) as { paths: Record<string, Record<string, Json>> };
  for (const item of Object.values(document.paths))
    for (const op of Object.values(item)) if (typeof op.operationId === 'string') op.operationId = RENAMED[op.operationId];
  return document as unknown as Json;
}

interface Step {
  method?: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const json = (value: unknown): Step['body'] => JSON.stringify(value);
const post = (body: string | undefined, headers: Record<string, string> = {}): Step => ({ method: 'POST', path: '/pets', body, headers });

/** Creates (valid and not), lists with limit and status, reads, 404s, refusals: the order matters (ids). */
const SEQUENCE: Step[] = [
  { path: '/pets' },
  post(json({ name: 'Rex', categoryId: 1, status: 'available' })),
  post(json({ name: 'Tom', categoryId: 2 })),
  post(json({ name: 'Polly', categoryId: 3, status: 'sold' })),
  post(json({ id: 99, name: 'Owned', categoryId: 1 })),
  post(json({})),
  post(json({ name: 'NoCategory' })),
  post(json({ name: 7, categoryId: 1 })),
  post(json({ name: 'Bad', categoryId: 1, status: 'lost' })),
  post(json({ name: 'Extra', categoryId: 1, colour: 'red' })),
  post(json([{ name: 'Rex', categoryId: 1 }])),
  post('{"name": '),
  post(undefined),
  post(json({ name: 'Plain', categoryId: 1 }), { 'content-type': 'text/plain' }),
  post(json({ name: 'Felix', categoryId: 2, status: 'sold' })),
  { path: '/pets' },
  { path: '/pets?limit=2' },
  { path: '/pets?status=sold' },
  { path: '/pets?status=sold&limit=1' },
  { path: '/pets?status=pending' },
  { path: '/pets?limit=0' },
  { path: '/pets?limit=101' },
  { path: '/pets?limit=abc' },
  { path: '/pets?status=lost' },
  { path: '/pets/1' },
  { path: '/pets/2' },
  { path: '/pets/999' },
  { path: '/pets/0' },
  { path: '/pets/abc' },
  { method: 'DELETE', path: '/pets/1' },
  { path: '/pets', headers: { authorization: '' } },
  { path: '/pets/1', headers: { authorization: 'Bearer wrong-key' } },
  { path: '/pets', headers: { authorization: 'Basic c2FuZGJveC1rZXk=' } },
  { path: '/pets?limit=1', headers: { authorization: 'Bearer' } },
];

/** What a client reads of an answer. */
const READ_HEADERS = ['content-type', 'deprecation', 'sunset', 'link', 'www-authenticate', 'allow'];

async function run(sandbox: PetstoreSandbox, steps: readonly Step[]) {
  const answers = [];
  for (const step of steps) {
    const headers = new Headers({
      authorization: 'Bearer sandbox-key',
      ...(step.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...step.headers,
    });
    if (headers.get('authorization') === '') headers.delete('authorization');
    const res = await sandbox.fetch(`/v1${step.path}`, { method: step.method ?? 'GET', headers, ...(step.body === undefined ? {} : { body: step.body }) });
    const text = await res.text();
    const read = Object.fromEntries(READ_HEADERS.flatMap((name) => (res.headers.has(name) ? [[name, res.headers.get(name)]] : [])));
    answers.push({ step: `${step.method ?? 'GET'} ${step.path} ${step.body ?? ''}`, status: res.status, headers: read, body: text });
  }
  return answers;
}

let petStore: PetstoreSandbox;
let conventions: PetstoreSandbox;

beforeAll(async () => {
  petStore = await createSandbox({ count: 0 });
  conventions = await createSandbox({ count: 0, spec: renamedSpec() });
}, 60_000);

afterAll(async () => {
  await petStore?.close();
  await conventions?.close();
});

describe('the Pet Store served by convention and by its own mode', { timeout: 60_000 }, () => {
  it('answers the same sequence alike: ids, defaults, read-only fields, validation errors, 404s', async () => {
    const expected = await run(petStore, SEQUENCE);
    const actual = await run(conventions, SEQUENCE);
    expect(actual).toEqual(expected);
  });
});

describe("what differs: the Pet Store's rules, the layer over the conventions", { timeout: 60_000 }, () => {
  const pair = async (options: Parameters<typeof createSandbox>[0]) =>
    Promise.all([createSandbox(options), createSandbox({ ...options, spec: renamedSpec() })]);

  it('seeds its own pets (names, categories 1 to 6, weighted statuses), not values drawn from the Pet schema', async () => {
    const [own, conventional] = await pair({ count: 3, seed: 4 });
    try {
      const [expected, actual] = await Promise.all([run(own, [{ path: '/pets' }]), run(conventional, [{ path: '/pets' }])]);
      expect(JSON.parse(actual[0]?.body ?? '[]')).toHaveLength(3);
      expect(actual[0]?.body).not.toBe(expected[0]?.body);
      for (const pet of JSON.parse(expected[0]?.body ?? '[]') as { categoryId: number }[]) expect(pet.categoryId).toBeLessThanOrEqual(6);
    } finally {
      await Promise.all([own.close(), conventional.close()]);
    }
  });

  it('holds a workspace to the pet quota (--quota-pets), which the conventions do not know', async () => {
    const [own, conventional] = await pair({ count: 0, options: { 'quota-pets': 1 } });
    try {
      const twice = [post(json({ name: 'One', categoryId: 1 })), post(json({ name: 'Two', categoryId: 1 }))];
      const [expected, actual] = [await run(own, twice), await run(conventional, twice)];
      expect(expected.map((one) => one.status)).toEqual([201, 507]);
      expect(JSON.parse(expected[1]?.body ?? '{}')).toMatchObject({ code: 'quota_exceeded', status: 507 });
      expect(actual.map((one) => one.status)).toEqual([201, 201]);
    } finally {
      await Promise.all([own.close(), conventional.close()]);
    }
  });
});
