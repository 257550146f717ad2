/**
 * PostgreSQL's own programs, run for the tests: `initdb` makes a cluster, the
 * server (the postmaster) serves it on one port, a fast shutdown stops it.
 *
 * PostgreSQL refuses to run as root, so as root both run as the user
 * `postgres`, or `nobody` where there is none. Whatever goes wrong ends in one
 * PostgresStartError, whose message is one line that says why.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { PostgresBinaries } from './postgres-binaries.js';
import { closedFolderOnTheWay, userIds, type UserIds } from './user-reach.js';

/** The user PostgreSQL runs as: a name and its ids. */
export interface ServerUser extends UserIds {
  name: string;
}

/** PostgreSQL did not start; the message is one line: `PostgreSQL could not start: <why>`. */
export class PostgresStartError extends Error {
  constructor(
    reason: string,
    /** The port was taken by another process: another port may work. */
    readonly portTaken = false,
  ) {
    super(`PostgreSQL could not start: ${reason.replace(/\s*\n\s*/g, ' ')}`);
    this.name = 'PostgresStartError';
  }
}

/** Who runs PostgreSQL: `undefined` when this process is not root (it runs as this process's user). */
export function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const ids = userIds(name);
    if (ids) return { name, ...ids };
  }
  throw new PostgresStartError('it does not run as root, and this system has neither a user postgres nor a user nobody to run it as');
}

/** Fails with one line when `user` cannot enter a folder on the way to `paths` (only root's children can meet one). */
export function checkReach(user: ServerUser | undefined, paths: string[]): void {
  for (const path of user ? paths : []) {
    const closed = closedFolderOnTheWay(path, user as ServerUser);
    if (closed) throw new PostgresStartError(`the user ${user?.name} cannot reach ${path}: ${closed} is closed to it`);
  }
}

/** The line of PostgreSQL's output that says what went wrong: an error or fatal line, else the last line. */
export function summarise(output: string): string {
  const lines = output.split('\n').map((line) => line.trim());
  const said = lines.find((line) => /^initdb: error:|\b(FATAL|ERROR|PANIC):/.test(line)) ?? lines.filter(Boolean).at(-1);
  // The server's log lines start with a time and a process id: the severity and the message are what matter.
  return said?.replace(/^.*?\b(FATAL|ERROR|PANIC):\s*/, '$1: ') ?? 'it printed nothing';
}

/** Spawns one of the programs as `user`, in the C locale (its messages are read). */
function launch(program: string, args: string[], user: ServerUser | undefined): ChildProcess {
  return spawn(program, args, {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: { ...process.env, LC_ALL: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Why a program could not be run at all (spawn's own error). */
const spawnFailure = (program: string, error: NodeJS.ErrnoException): PostgresStartError =>
  new PostgresStartError(`${program} could not be run (${error.code ?? error.message})`);

/** Makes a cluster in `dataDir` (a new folder in one `user` may write), with the superuser `postgres` and the password in `passwordFile`. */
export function initCluster(bin: PostgresBinaries, dataDir: string, passwordFile: string, user: ServerUser | undefined): Promise<void> {
  const args = [`--pgdata=${dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'];
  const child = launch(bin.initdb, args, user);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(spawnFailure(bin.initdb, error)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new PostgresStartError(`initdb failed (${signal ?? `exit code ${code}`}): ${summarise(output)}`));
    });
  });
}

/** A running server; `stop()` shuts it down (fast shutdown) and waits for it to end. */
export interface RunningServer {
  pid: number | undefined;
  stop(): Promise<void>;
}

const READY = 'database system is ready to accept connections';
const PORT_TAKEN = /could not bind|Address already in use|could not create any TCP\/IP sockets/;

/**
 * Starts the server on `port` and the cluster in `dataDir` (flags are
 * `postgres` options such as `-c fsync=on`). Unix sockets are off: the tests
 * connect over TCP, and a socket in a shared folder could clash with another
 * server's. Ends the server when this process exits.
 */
export function startServer(
  bin: PostgresBinaries,
  dataDir: string,
  port: number,
  flags: string[],
  user: ServerUser | undefined,
  timeoutMs = 60_000,
): Promise<RunningServer> {
  const child = launch(bin.postgres, ['-D', dataDir, '-p', String(port), '-c', 'unix_socket_directories=', ...flags], user);
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  const ended = new Promise<void>((resolve) => {
    const done = () => (process.off('exit', stopOnExit), resolve());
    child.once('close', done).once('error', done);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await ended;
  };
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (error: PostgresStartError) => (clearTimeout(timer), void stop(), reject(error));
    const timer = setTimeout(
      () => fail(new PostgresStartError(`the server did not say it was ready within ${timeoutMs / 1000} s: ${summarise(output)}`)),
      timeoutMs,
    );
    child.stdout?.resume();
    child.stderr?.on('data', (chunk: Buffer) => {
      if (output.includes(READY)) return;
      output += chunk.toString();
      if (!output.includes(READY)) return;
      clearTimeout(timer);
      resolve({ pid: child.pid, stop });
    });
    child.once('error', (error) => fail(spawnFailure(bin.postgres, error)));
    child.once('close', (code, signal) => {
      const why = summarise(output);
      fail(new PostgresStartError(`the server ended (${signal ?? `exit code ${code}`}) before it was ready: ${why}`, PORT_TAKEN.test(output)));
    });
  });
}
