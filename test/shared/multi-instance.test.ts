/**
 * Two sandbox processes on one PostgreSQL database serve as one sandbox
 * (issue 12): what is written through one is read through the other at
 * once, ids stay distinct under concurrent creates, faults, journal and
 * mode are shared, and a killed instance loses no acknowledged pet.
 */
import { describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { runCli } from '../support/spawn.js';
import { freshStore, startInstance, stopInstances, twoInstances } from '../support/shared-sandboxes.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const two = twoInstances(['--count', '5']);

describe('two instances on one database', () => {
  it('a pet created through A is fetched and listed through B at once', async () => {
    const created = await two.a.call('/v1/pets', { method: 'POST', json: { name: 'Across', categoryId: 3, status: 'pending' } });
    expect(created.status).toBe(201);
    const pet = created.body as Pet;
    const fetched = await two.b.call(`/v1/pets/${pet.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(pet);
    const listed = await two.b.call('/v1/pets?limit=100&status=pending');
    expect((listed.body as Pet[]).map((p) => p.id)).toContain(pet.id);
  });

  it("what B has read is read anew once A changes the workspace: a create, a load and a reset are seen by B's next request", async () => {
    const list = async () => ((await two.b.call('/v1/pets?limit=100')).body as Pet[]).map((p) => p.id);
    // B reads twice (the second may be answered from what it kept), and a miss too.
    const before = await list();
    expect(await list()).toEqual(before);
    const next = Math.max(0, ...before) + 1;
    expect((await two.b.call(`/v1/pets/${next}`)).status).toBe(404);
    const created = await two.a.call('/v1/pets', { method: 'POST', json: { name: 'Seen', categoryId: 1 } });
    expect((created.body as Pet).id).toBe(next);
    expect(await list()).toEqual([...before, next]);
    expect((await two.b.call(`/v1/pets/${next}`)).body).toEqual(created.body);
    expect((await two.a.ctl('POST', '/load', { json: { nextId: 50, pets: [{ id: 40, name: 'Loaded', categoryId: 2 }] } })).status).toBe(200);
    expect(await list()).toEqual([40]);
    expect((await two.b.call(`/v1/pets/${next}`)).status).toBe(404);
    expect((await two.a.ctl('POST', '/reset', { json: { seed: 3, count: 2 } })).status).toBe(200);
    expect(await list()).toEqual([1, 2]);
  });

  it('200 concurrent creates split across A and B get the next 200 ids, none twice and none skipped, all listed through either', async () => {
    const { nextId } = (await two.a.ctl('GET', '/export')).body as { nextId: number };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? two.a : two.b).call('/v1/pets', { method: 'POST', json: { name: `Burst ${i}`, categoryId: 1 } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(201));
    const ids = results.map((r) => (r.body as Pet).id);
    expect([...ids].sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => nextId + i));
    const exported = (await two.b.ctl('GET', '/export')).body as { nextId: number; pets: Pet[] };
    expect(exported.nextId).toBe(nextId + 200);
    const stored = new Set(exported.pets.map((p) => p.id));
    for (const id of ids) expect(stored.has(id)).toBe(true);
  });

  it('a fault with count 2 set through A fires exactly twice across both', async () => {
    const fault = await two.a.ctl('POST', '/faults', { json: { operationId: 'listPets', status: 503, count: 2 } });
    expect(fault.status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 ? two.a : two.b).call('/v1/pets?limit=1')).status);
    expect(statuses.filter((s) => s === 503)).toHaveLength(2);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect((await two.b.ctl('GET', '/faults')).body).toMatchObject({ faults: [] });
  });

  it('concurrent requests through both take a count-limited fault exactly count times', async () => {
    await two.b.ctl('POST', '/faults', { json: { operationId: 'getPet', status: 500, count: 3 } });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? two.a : two.b).call('/v1/pets/1')));
    expect(results.filter((r) => r.status === 500)).toHaveLength(3);
    expect(results.filter((r) => r.status === 200)).toHaveLength(37);
  });

  it('the journal read through A shows requests B served', async () => {
    await two.a.ctl('DELETE', '/journal');
    const marker = `/v1/pets?limit=7&status=sold`;
    expect((await two.b.call(marker)).status).toBe(200);
    // B writes its journal right after answering; reading through A sees it within moments.
    let paths: string[] = [];
    for (let tries = 0; tries < 100 && !paths.includes('/v1/pets?limit=7'); tries++) {
      const journal = await two.a.ctl('GET', '/journal');
      paths = (journal.body as { entries: { path: string; query: Record<string, string> }[] }).entries.map((e) => `${e.path}?limit=${e.query.limit}`);
      if (!paths.includes('/v1/pets?limit=7')) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(paths).toContain('/v1/pets?limit=7');
  });

  it("A's live journal stream shows the requests B serves, as they are written, in order", async () => {
    const stop = new AbortController();
    const control = createControlClient({ origin: two.a.child.origin, adminToken: 'sandbox-admin' });
    const events = control.events('streamJournal', { query: { limit: 1 } }, { signal: stop.signal })[Symbol.asyncIterator]();
    const limits: string[] = [];
    const seen = new Set<string>();
    void (async () => {
      for (let next = await events.next(); !next.done; next = await events.next()) {
        if (next.value.event !== 'entry') continue;
        const limit = (JSON.parse(next.value.data) as { query: Record<string, string> }).query.limit ?? '';
        limits.push(limit);
        seen.add(limit);
      }
    })().catch(() => undefined);
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    try {
      // A starts listening when the stream opens: B's requests show once it does (a few at most go by before).
      for (let i = 0; i < 20 && !seen.has('3'); i++) {
        expect((await two.b.call('/v1/pets?limit=3')).status).toBe(200);
        await until(() => seen.has('3'));
      }
      expect(seen.has('3')).toBe(true);
      expect((await two.b.call('/v1/pets?limit=8')).status).toBe(200);
      expect((await two.b.call('/v1/pets?limit=9')).status).toBe(200);
      await until(() => seen.has('9'));
      expect(limits.filter((l) => l === '8' || l === '9')).toEqual(['8', '9']);
    } finally {
      stop.abort();
      await events.return?.();
    }
  }, 60_000);

  it('a mode switch through A applies on B', async () => {
    expect((await two.a.ctl('PUT', '/mode', { json: { mode: 'example' } })).status).toBe(200);
    try {
      expect((await two.b.ctl('GET', '/mode')).body).toMatchObject({ mode: 'example' });
      const listed = await two.b.call('/v1/pets?limit=100');
      expect(listed.status).toBe(200);
      // The spec's example, not the 200-odd pets stored.
      expect((listed.body as Pet[]).length).toBeLessThan(50);
    } finally {
      await two.a.ctl('PUT', '/mode', { json: { mode: 'stateful' } });
    }
    expect((await two.b.call('/v1/pets?limit=100')).body).toHaveLength(100);
  }, 120_000);

  it('an instance started later serves in the shared mode, and sets it only when --mode is given', async () => {
    expect((await two.a.ctl('PUT', '/mode', { json: { mode: 'example' } })).status).toBe(200);
    try {
      // A replica restarted without --mode (a rolling deploy) keeps the mode the control plane chose.
      const c = await startInstance(two.url);
      try {
        expect((await c.ctl('GET', '/mode')).body).toMatchObject({ mode: 'example' });
        expect(((await c.call('/v1/pets?limit=100')).body as Pet[]).length).toBeLessThan(50);
      } finally {
        await stopInstances(c);
      }
      expect((await two.b.ctl('GET', '/mode')).body).toMatchObject({ mode: 'example' });
      const d = await startInstance(two.url, ['--mode', 'stateful']);
      await stopInstances(d);
      expect((await two.a.ctl('GET', '/mode')).body).toMatchObject({ mode: 'stateful' });
    } finally {
      await two.a.ctl('PUT', '/mode', { json: { mode: 'stateful' } });
    }
  }, 120_000);

  it('kill -9 of an instance under create load loses no acknowledged pet: each is readable through the other', async () => {
    const c = await startInstance(two.url);
    const acknowledged: Pet[] = [];
    let stop = false;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const res = await c.call('/v1/pets', { method: 'POST', json: { name: `Load ${w}-${i}`, categoryId: 2 } }).catch(() => undefined);
        if (res?.status === 201) acknowledged.push(res.body as Pet);
        else if (res === undefined) return;
      }
    });
    while (acknowledged.length < 50) await new Promise((resolve) => setTimeout(resolve, 20));
    c.child.child.kill('SIGKILL');
    await c.child.ended;
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(50);
    for (const pet of acknowledged) {
      const read = await two.b.call(`/v1/pets/${pet.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(pet);
    }
  }, 120_000);
});

describe('instances starting together on a fresh database', () => {
  it('all start: the schema is made once, under the advisory lock, and they share one seeded workspace', async () => {
    const fresh = await freshStore(two.server.port);
    const started = await Promise.allSettled([
      startInstance(fresh, ['--count', '4']),
      startInstance(fresh, ['--count', '4']),
      startInstance(fresh, ['--count', '4']),
    ]);
    const instances = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      expect(started.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      for (const instance of instances) expect(((await instance.call('/v1/pets?limit=100')).body as Pet[]).map((p) => p.id)).toEqual([1, 2, 3, 4]);
    } finally {
      await stopInstances(...instances);
    }
  }, 180_000);
});

describe('QA commands on the database', () => {
  it('load and export work on the database itself, and a running instance serves what was loaded', async () => {
    const fresh = await freshStore(two.server.port);
    const load = await runCli(['load', 'every-status', '--store', fresh]);
    expect(load.code).toBe(0);
    const instance = await startInstance(fresh, ['--mode', 'stateful']);
    try {
      const exported = await runCli(['export', '--store', fresh]);
      expect(exported.code).toBe(0);
      const listed = (await instance.call('/v1/pets?limit=100')).body as Pet[];
      expect((JSON.parse(exported.stdout) as { pets: Pet[] }).pets).toEqual(listed);
      expect(new Set(listed.map((p) => p.status))).toEqual(new Set(['available', 'pending', 'sold', undefined]));
    } finally {
      await stopInstances(instance);
    }
  }, 120_000);
});
