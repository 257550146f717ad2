/**
 * A real PgBouncer (Debian's `/usr/sbin/pgbouncer`) in front of a test
 * PostgreSQL server, in transaction mode with a small pool, so that clients
 * share server connections: what `--database-pooler transaction` is for.
 *
 * PgBouncer cannot listen on port 0: a free port is picked by binding a
 * socket to port 0 and closing it, and another one tried when the port was
 * taken meanwhile. As root it refuses to run unless told a user (`-u nobody`),
 * so its folder and files are readable by everyone. Stopped by its pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './harness.js';
import { postgresUrl } from './postgres.js';
import { ROOT } from './spawn.js';
import { freePort } from './ports.js';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** Why PgBouncer cannot run here, or `undefined` when it can. */
export const pgbouncerUnavailable = (): string | undefined => (existsSync(PGBOUNCER) ? undefined : `${PGBOUNCER} is not installed`);

export interface TestPgBouncer {
  port: number;
  /** `postgres://postgres:password@127.0.0.1:<port>/<database>`, through PgBouncer. */
  url(database: string): string;
  /** What it printed so far. */
  output(): string;
  /** Immediate shutdown (SIGTERM: a safe one would wait for every client to leave), waited for. */
  stop(): Promise<void>;
}

/** The deployment's configuration, which this one is made of (docs/deployment.md). */
export const PGBOUNCER_CONFIG = join(ROOT, 'deploy', 'pgbouncer.ini');

/**
 * Its configuration: the deployment's (`deploy/pgbouncer.ini`) with its two lines marked `set:` given the test
 * server's port and this one's, `poolSize` server connections per database and user, the user list in `dir`, no
 * Unix socket (another test's PgBouncer may use the same port number's socket name), no connection log lines.
 */
function writeConfig(dir: string, port: number, postgresPort: number, poolSize: number): string {
  const users = join(dir, 'userlist.txt');
  // The test server's superuser and password (postgres.ts): PgBouncer logs in to the server with it too.
  writeFileSync(users, '"postgres" "password"\n', { mode: 0o644 });
  const text = readFileSync(PGBOUNCER_CONFIG, 'utf8')
    .replace(/^\* = host=.*$/m, `* = host=127.0.0.1 port=${postgresPort}`)
    .replace(/^listen_port = .*$/m, `listen_port = ${port}`)
    .replace(/^auth_file = .*$/m, `auth_file = ${users}`)
    .replace(/^default_pool_size = .*$/m, `default_pool_size = ${poolSize}`);
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(ini, `${text}\nunix_socket_dir =\nlog_connections = 0\nlog_disconnections = 0\n`, { mode: 0o644 });
  return ini;
}

const LISTENING = /listening on 127\.0\.0\.1:\d+/;

/** Starts PgBouncer on `port`; resolves once it listens, rejects with what it printed when it ends first. */
function launch(ini: string): Promise<{ child: ChildProcess; output: () => string }> {
  const asNobody = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  const child = spawn(PGBOUNCER, [...asNobody, ini], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
  let printed = '';
  const output = () => printed;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`PgBouncer did not listen within 20 s:\n${printed}`))), 20_000);
    const take = (chunk: Buffer) => {
      printed += chunk.toString();
      if (!LISTENING.test(printed)) return;
      clearTimeout(timer);
      resolve({ child, output });
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('error', (error) => (clearTimeout(timer), reject(error)));
    child.once('close', (code) => (clearTimeout(timer), reject(new Error(`PgBouncer ended (exit code ${code}):\n${printed}`))));
  });
}

/** PgBouncer in transaction mode before the test server on `postgresPort`, on a free port. */
export async function startPgBouncer(postgresPort: number, poolSize = 2): Promise<TestPgBouncer> {
  const dir = tempDir('petstore-pgbouncer-');
  chmodSync(dir, 0o755);
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const { child, output } = await launch(writeConfig(dir, port, postgresPort, poolSize));
      const ended = new Promise<void>((resolve) => (child.exitCode === null ? child.once('close', () => resolve()) : resolve()));
      return {
        port,
        url: (database) => postgresUrl(port, database),
        output,
        async stop() {
          if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
          await ended;
        },
      };
    } catch (error) {
      if (attempt === 3 || !/Address already in use/.test((error as Error).message)) throw error;
    }
  }
}
