/**
 * A fleet in production shape, on loopback, from the system's packages:
 * three sandbox instances behind HAProxy (deploy/haproxy.cfg, health checks
 * on /readyz), PgBouncer in transaction mode (deploy/pgbouncer.ini), one
 * PostgreSQL. For at least a minute clients create, read and list pets and
 * follow their journals through HAProxy, while each instance in turn gets
 * SIGTERM, drains and starts again, and then PostgreSQL itself restarts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startHaproxy, type RunningHaproxy } from '../support/fleet/haproxy.js';
import { startFleetInstance, waitReady, type FleetInstance } from '../support/fleet/instances.js';
import { startPgBouncer, type TestPgBouncer } from '../support/pgbouncer.js';
import { freePort } from '../support/ports.js';
import { runLoad, type LoadRecord } from './load.js';
import { followJournal, type FollowedStream } from './streams.js';

const KEYS = ['fleet-key-a', 'fleet-key-b', 'fleet-key-c'];
const TOKEN = 'sandbox-admin';
/** How long the load runs at least, restarts included. */
const LOAD_MS = 60_000;
const WORKERS = 6;

let postgres: TestPostgres;
let bouncer: TestPgBouncer;
let haproxy: RunningHaproxy;
const instances: FleetInstance[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  const database = await postgres.createDatabase('fleet');
  // The deployment's pool: 20 server connections shared by the three instances.
  bouncer = await startPgBouncer(postgres.port, 20);
  const args = [
    ...['--store', bouncer.url(database), '--database-pooler', 'transaction', '--database-listen-url', postgres.url(database)],
    ...['--api-keys', KEYS.join(','), '--shutdown-delay', '1', '--journal-size', '50000', '--journal-memory', String(256 * 2 ** 20)],
  ];
  // One after the other: the first makes the schema.
  for (const name of ['sandbox-1', 'sandbox-2', 'sandbox-3']) instances.push(await startFleetInstance(name, args));
  haproxy = await startHaproxy(
    await freePort(),
    instances.map((i) => `127.0.0.1:${i.port}`),
  );
  await waitReady(haproxy.origin, 30_000);
}, 240_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.kill()));
  await haproxy?.stop();
  await bouncer?.stop();
  await postgres?.stop();
}, 60_000);

/** Every pet of `key`'s workspace as instance `origin` reads it (the control plane's export). */
async function exported(origin: string, key: string): Promise<Map<number, string>> {
  const res = await fetch(`${origin}/__sandbox/export`, { headers: { authorization: `Bearer ${TOKEN}`, 'x-sandbox-key': key } });
  expect(res.status).toBe(200);
  const { pets } = (await res.json()) as { pets: { id: number; name: string }[] };
  return new Map(pets.map((p) => [p.id, p.name]));
}

/** The names of the creates a journal holds (as instance `origin` reads it), or a stream delivered. */
const createdNames = (entries: readonly { status: number; requestBody: unknown }[]): string[] =>
  entries.filter((e) => e.status === 201).map((e) => (e.requestBody as { name: string }).name);

async function journalOf(origin: string, key: string): Promise<{ status: number; requestBody: unknown }[]> {
  const res = await fetch(`${origin}/__sandbox/journal?limit=50000`, { headers: { authorization: `Bearer ${TOKEN}`, 'x-sandbox-key': key } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: { status: number; requestBody: unknown }[] }).entries;
}

/** Restarts each instance in turn, then PostgreSQL; the instances must come back from the latter by themselves. */
async function rollAndRestartDatabase(): Promise<void> {
  for (const instance of instances) {
    const ended = await instance.restart();
    expect(ended, `${instance.name} drained and exited 0`).toEqual({ code: 0, signal: null });
    await sleep(3_000);
  }
  await postgres.pause();
  await sleep(3_000);
  await postgres.resume();
  const pids = instances.map((i) => i.current().child.pid);
  await Promise.all(instances.map((i) => waitReady(i.origin, 60_000)));
  expect(
    instances.map((i) => i.current().child.pid),
    'no instance was restarted',
  ).toEqual(pids);
}

describe('a fleet behind HAProxy and PgBouncer (transaction mode), rolling restarts and a database restart under load', () => {
  it('loses no acknowledged write, answers no unexpected 5xx, and every resumed journal stream is complete', async () => {
    const streams: FollowedStream[] = KEYS.map((key) => followJournal(haproxy.origin, TOKEN, key));
    while (streams.some((s) => s.connections === 0)) await sleep(50);
    const started = Date.now();
    let running = true;
    const load: Promise<LoadRecord> = runLoad(haproxy.origin, KEYS, WORKERS, () => running);
    await sleep(5_000);
    await rollAndRestartDatabase();
    await sleep(Math.max(0, LOAD_MS - (Date.now() - started)));
    running = false;
    const record = await load;

    expect(record.unexpected.slice(0, 20), `${record.unexpected.length} unexpected answers, the first 20`).toEqual([]);
    for (const key of KEYS) {
      const acknowledged = record.acknowledged.get(key) as Map<number, string>;
      expect(acknowledged.size).toBeGreaterThan(100);
      for (const instance of instances) {
        const stored = await exported(instance.origin, key);
        const made = new Map([...stored].filter(([, name]) => name.startsWith('fleet-')));
        // Every acknowledged create is there, and nothing a create was not acknowledged for.
        expect(made, `${key} on ${instance.name}`).toEqual(acknowledged);
      }
    }
    // The streams catch up with the journal, then hold each of its creates exactly once.
    for (const [index, key] of KEYS.entries()) {
      const stream = streams[index] as FollowedStream;
      const journaled = createdNames(await journalOf((instances[0] as FleetInstance).origin, key)).sort();
      const deadline = Date.now() + 20_000;
      const delivered = () => createdNames(stream.entries.map((e) => JSON.parse(e.data) as { status: number; requestBody: unknown }));
      while (delivered().length < journaled.length && Date.now() < deadline) await sleep(100);
      await stream.stop();
      expect(stream.unexpected).toEqual([]);
      expect(stream.others.filter((e) => e.event === 'gap')).toEqual([]);
      const got = delivered();
      const creates = stream.entries
        .map((e) => ({ id: e.id, entry: JSON.parse(e.data) as { status: number; requestBody?: { name?: string } } }))
        .filter(({ entry }) => entry.status === 201);
      const odd = creates.filter(({ entry }) => {
        const name = entry.requestBody?.name as string;
        return !journaled.includes(name) || got.indexOf(name) !== got.lastIndexOf(name);
      });
      const why = `twice or not journaled: ${odd.map(({ id, entry }) => `${id} ${JSON.stringify(entry).slice(0, 200)}`).join('; ')}`;
      expect(got.sort(), `${key}'s stream (${why})`).toEqual(journaled);
      const ids = stream.entries.map((e) => e.id);
      expect(new Set(ids).size, 'no event twice').toBe(ids.length);
      expect(stream.connections, 'the stream was resumed after its instance went away').toBeGreaterThan(1);
    }
    console.log(
      `fleet: ${Date.now() - started} ms of load; answers ${JSON.stringify(Object.fromEntries(record.statuses))}; ` +
        `503 with Retry-After ${record.retried}; stream connections ${streams.map((s) => s.connections).join(', ')}`,
    );
  }, 300_000);
});
