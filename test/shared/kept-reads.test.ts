/**
 * Reads kept by each instance on PostgreSQL, served without asking the
 * database first (src/store/postgres/cache-coherence.ts): both instances
 * of one database keep the lists and pets they read, and still every
 * request through either, alternating, sees every write acknowledged
 * through the other. What proves that the lists are kept, and that the
 * checks here catch a stale one: a pet slipped into the table behind the
 * workspace's version is not listed by an instance that kept the list.
 */
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { twoInstances, type Instance } from '../support/shared-sandboxes.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
}

const two = twoInstances(['--count', '5']);

/** One statement on the instances' database. */
async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: two.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const liveMembers = async () => Number((await sql<{ n: string }>('SELECT count(*) AS n FROM petstore_cache_members WHERE expires > clock_timestamp()'))[0]?.n);

async function ids(instance: Instance): Promise<number[]> {
  const listed = await instance.call('/v1/pets?limit=100');
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as Pet[]).map((p) => p.id);
}

async function create(instance: Instance, name: string): Promise<Pet> {
  const created = await instance.call('/v1/pets', { method: 'POST', json: { name, categoryId: 1 } });
  expect(created.status, created.text).toBe(201);
  return created.body as Pet;
}

/** Neither instance stopped keeping reads (a failure in hearing or acking would make it ask the database, and say so). */
function bothStillKeep(): void {
  for (const instance of [two.a, two.b]) expect(instance.child.output()).not.toMatch(/Reads are asked of PostgreSQL/);
}

describe('reads kept by each instance on one database', () => {
  beforeAll(async () => {
    // Both listen and have registered: from then on they answer reads from what they kept.
    const deadline = Date.now() + 20_000;
    while ((await liveMembers()) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await liveMembers()).toBe(2);
  }, 30_000);

  it('an instance answers a list it kept without the database: a pet slipped in behind the version is not listed, a create is', async () => {
    const before = await ids(two.b);
    expect(await ids(two.b)).toEqual(before);
    const [workspace] = await sql<{ id: string }>('SELECT id FROM petstore_workspaces');
    const hidden = 900;
    await sql('INSERT INTO petstore_pets (workspace, id, status, json) VALUES ($1, $2, NULL, $3)', [
      workspace?.id,
      hidden,
      JSON.stringify({ id: hidden, name: 'Hidden', categoryId: 1 }),
    ]);
    // Stale on purpose: nothing changed the version, so B answers from what it kept (an instance asking the database would list it).
    expect(await ids(two.b)).toEqual(before);
    const pet = await create(two.a, 'Seen');
    expect(await ids(two.b)).toEqual([...before, pet.id, hidden].sort((x, y) => x - y));
    await sql('DELETE FROM petstore_pets WHERE id = $1', [hidden]);
    await create(two.a, 'After the hidden one');
  });

  it('clients alternating instances see every write acknowledged through the other at their next request', { timeout: 120_000 }, async () => {
    const client = async (c: number) => {
      for (let round = 0; round < 12; round++) {
        const [writer, reader] = (round + c) % 2 === 0 ? [two.a, two.b] : [two.b, two.a];
        const pet = await create(writer, `c${c}r${round}`);
        expect(await ids(reader)).toContain(pet.id);
        expect((await reader.call(`/v1/pets/${pet.id}`)).body).toEqual(pet);
        expect(await ids(writer)).toContain(pet.id);
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    expect(await ids(two.a)).toEqual(await ids(two.b));
    bothStillKeep();
  });

  it("a reset and a fault set through one instance are in force at the other's next request", async () => {
    expect(await ids(two.b)).not.toEqual([1, 2]);
    expect((await two.a.ctl('POST', '/reset', { json: { seed: 3, count: 2 } })).status).toBe(200);
    expect(await ids(two.b)).toEqual([1, 2]);
    expect((await two.b.call('/v1/pets/2')).status).toBe(200);
    expect((await two.b.ctl('POST', '/faults', { json: { operationId: 'getPet', status: 503 } })).status).toBe(201);
    expect((await two.a.call('/v1/pets/2')).status).toBe(503);
    expect((await two.b.ctl('DELETE', '/faults')).status).toBe(200);
    expect((await two.a.call('/v1/pets/2')).status).toBe(200);
    bothStillKeep();
    expect(await liveMembers()).toBe(2);
  });

  it('an instance that stood still past its lease is waited for no longer, and reads anew when it goes on', { timeout: 60_000 }, async () => {
    const kept = await ids(two.b);
    const pid = two.b.child.child.pid as number;
    process.kill(pid, 'SIGSTOP');
    let pet: Pet;
    try {
      // A's create waits for B until B's lease runs out (a few seconds), then is answered.
      pet = await create(two.a, 'While B stood still');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(await ids(two.b)).toEqual([...kept, pet.id]);
    // B registers again and keeps reads once more.
    const deadline = Date.now() + 20_000;
    while ((await liveMembers()) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await liveMembers()).toBe(2);
    const next = await create(two.b, 'After');
    expect(await ids(two.a)).toEqual([...kept, pet.id, next.id]);
  });
});
