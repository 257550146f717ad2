/**
 * PostgreSQL through a real PgBouncer in transaction mode, two server
 * connections shared by every client: with `--database-pooler transaction`
 * two instances serve creates, reads, lists, journal reads and a followed
 * journal stream of several clients at once, correctly, the stream by
 * polling or by LISTEN on `--database-listen-url`. Without it (session mode,
 * the default), the same pooler breaks the prepared statements: what shows
 * that the test sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { KEY } from '../support/harness.js';
import { runCli } from '../support/spawn.js';
import { createDatabase, postgresUrl } from '../support/postgres.js';
import { pgbouncerUnavailable, startPgBouncer, type TestPgBouncer } from '../support/pgbouncer.js';
import { postgresForFile, startInstance, stopInstances, type Instance } from '../support/shared-sandboxes.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
}

/** Workspaces read at once: more than PgBouncer's two server connections, so that the pool's four connections share them. */
const KEYS = [KEY, ...Array.from({ length: 7 }, (_, i) => `wide-key-${i}`)];
const TRANSACTION = ['--database-pooler', 'transaction', '--pg-pool-size', '4', '--count', '3', '--api-keys', KEYS.join(',')];
const POLLING = /pooler: +transaction mode, statements unnamed; the live journal reads other instances' requests every 250 ms/;
const CLIENTS = 6;
const ROUNDS = 6;

/** One client's work, on instances `one` and `other` in turn: creates, each read back and listed through the other; the pets it made. */
async function client(c: number, one: Instance, other: Instance): Promise<Pet[]> {
  const made: Pet[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [writer, reader] = round % 2 === 0 ? [one, other] : [other, one];
    const created = await writer.call('/v1/pets', { method: 'POST', json: { name: `c${c}r${round}`, categoryId: 1 + (round % 3) } });
    expect(created.status, created.text).toBe(201);
    const pet = created.body as Pet;
    const fetched = await reader.call(`/v1/pets/${pet.id}`);
    expect([fetched.status, fetched.body]).toEqual([200, pet]);
    const listed = await reader.call('/v1/pets?limit=100');
    expect(listed.status, listed.text).toBe(200);
    expect((listed.body as Pet[]).map((p) => p.id)).toContain(pet.id);
    made.push(pet);
  }
  return made;
}

/** Clients at once, half starting on each instance; every pet made has its own id, and both instances list them all. */
async function driveClients(a: Instance, b: Instance): Promise<void> {
  const made = (await Promise.all(Array.from({ length: CLIENTS }, (_, c) => (c % 2 === 0 ? client(c, a, b) : client(c, b, a))))).flat();
  expect(new Set(made.map((p) => p.id)).size).toBe(CLIENTS * ROUNDS);
  for (const instance of [a, b]) {
    const ids = ((await instance.call('/v1/pets?limit=100')).body as Pet[]).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining(made.map((p) => p.id)));
  }
}

/** Lists of every workspace at once, a few times (a new limit each time, so none is answered from memory): each one answered. */
async function wideReads(instance: Instance): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const answers = await Promise.all(
      KEYS.map((key, i) => fetch(`${instance.child.origin}/v1/pets?limit=${1 + round + i}`, { headers: { authorization: `Bearer ${key}` } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(KEYS.map(() => 200));
  }
}

/** Follows A's journal stream while B serves marker requests (`?limit=N`) and clients work on both: B's markers show on A's stream, in order. */
async function streamShowsOthers(a: Instance, b: Instance, work: () => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const events = createControlClient({ origin: a.child.origin, adminToken: 'sandbox-admin' })
    .events('streamJournal', { query: { limit: 1 } }, { signal: stop.signal })
    [Symbol.asyncIterator]();
  const limits: string[] = [];
  void (async () => {
    for (let next = await events.next(); !next.done; next = await events.next())
      if (next.value.event === 'entry') limits.push((JSON.parse(next.value.data) as { query: Record<string, string> }).query.limit ?? '');
  })().catch(() => undefined);
  const until = async (limit: string) => {
    for (let i = 0; i < 200 && !limits.includes(limit); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  try {
    // The stream opens before the tail follows: a marker or two may go by first.
    for (let i = 0; i < 20 && !limits.includes('3'); i++) {
      expect((await b.call('/v1/pets?limit=3')).status).toBe(200);
      await until('3');
    }
    expect(limits).toContain('3');
    // Two more markers, one after the other, while the clients work on both instances.
    const markers = async () => {
      for (const limit of ['8', '9']) expect((await b.call(`/v1/pets?limit=${limit}`)).status).toBe(200);
    };
    await Promise.all([work(), markers()]);
    await until('9');
    expect(limits.filter((l) => l === '8' || l === '9')).toEqual(['8', '9']);
  } finally {
    stop.abort();
    await events.return?.();
  }
}

/** B's requests, read through A's journal: the journal is shared through the pooler too. */
async function journalShows(a: Instance, limit: string): Promise<void> {
  let paths: string[] = [];
  for (let tries = 0; tries < 100 && !paths.includes(limit); tries++) {
    const journal = await a.ctl('GET', '/journal?limit=200');
    expect(journal.status).toBe(200);
    paths = (journal.body as { entries: { query: Record<string, string> }[] }).entries.map((e) => e.query.limit ?? '');
    if (!paths.includes(limit)) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(paths).toContain(limit);
}

describe.skipIf(pgbouncerUnavailable())('PostgreSQL through PgBouncer in transaction mode', () => {
  let server: Awaited<ReturnType<typeof postgresForFile>>;
  let bouncer: TestPgBouncer;
  /** A fresh database: its URL through PgBouncer, and its direct one. */
  const database = async () => {
    const name = await createDatabase(server.port, 'pooler');
    return { pooled: bouncer.url(name), direct: postgresUrl(server.port, name) };
  };

  beforeAll(async () => {
    server = await postgresForFile();
    bouncer = await startPgBouncer(server.port, 2);
  }, 180_000);
  afterAll(async () => {
    await bouncer?.stop();
    await server?.stop();
  }, 60_000);

  it('two instances serve several clients at once; the live journal polls, and says so once at start', { timeout: 180_000 }, async () => {
    const { pooled } = await database();
    const a = await startInstance(pooled, TRANSACTION);
    const b = await startInstance(pooled, TRANSACTION).catch(async (error: unknown) => (await stopInstances(a), Promise.reject(error)));
    try {
      await Promise.all([wideReads(a), wideReads(b)]);
      await streamShowsOthers(a, b, () => driveClients(a, b));
      await journalShows(a, '9');
      for (const instance of [a, b]) {
        expect(instance.child.output().match(new RegExp(POLLING, 'g')) ?? []).toHaveLength(1);
        expect(instance.child.output()).not.toMatch(/prepared statement|error/i);
      }
    } finally {
      await stopInstances(a, b);
    }
  });

  it('with --database-listen-url, the live journal listens on that direct connection', { timeout: 180_000 }, async () => {
    const { pooled, direct } = await database();
    const args = [...TRANSACTION, '--database-listen-url', direct];
    const a = await startInstance(pooled, args);
    const b = await startInstance(pooled, args).catch(async (error: unknown) => (await stopInstances(a), Promise.reject(error)));
    try {
      await Promise.all([wideReads(a), wideReads(b)]);
      await streamShowsOthers(a, b, () => driveClients(a, b));
      expect(a.child.output()).toContain('the live journal listens on --database-listen-url');
      expect(a.child.output()).not.toMatch(POLLING);
      expect(a.child.output()).not.toMatch(/prepared statement|error/i);
    } finally {
      await stopInstances(a, b);
    }
  });

  it('the QA commands on the database take --database-pooler transaction too', { timeout: 120_000 }, async () => {
    const { pooled } = await database();
    const cli = (...args: string[]) => runCli([...args, '--store', pooled, '--database-pooler', 'transaction']);
    for (const args of [['reset', '--count', '3'], ['load', 'every-status'], ['checkpoint', 'save', 'first'], ['export']]) {
      const run = await cli(...args);
      expect([run.code, run.stderr], args.join(' ')).toEqual([0, '']);
    }
    expect(JSON.parse((await cli('checkpoint', 'list')).stdout)).toMatchObject({ checkpoints: [{ name: 'first' }] });
  });

  it('in session mode (the default) the same pooler breaks the prepared statements: the test sees them', { timeout: 180_000 }, async () => {
    const { pooled } = await database();
    let instance: Instance | undefined;
    let said: string;
    try {
      instance = await startInstance(pooled, TRANSACTION.slice(2));
      for (let round = 0; round < 10 && !/prepared statement/.test(instance.child.output()); round++) await wideReads(instance).catch(() => undefined);
      said = instance.child.output();
    } catch (error) {
      // Or start-up itself failed on them.
      said = String((error as { out?: string }).out ?? error);
    } finally {
      await stopInstances(instance);
    }
    // The log writes the message as JSON: its quotes escaped.
    expect(said).toMatch(/prepared statement \\?"petstore-[\w-]+\\?" (does not exist|already exists)/);
  });
});
