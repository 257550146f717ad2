import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { controlAt, type Control } from './control-client.js';
import { KEY, tempDir } from './harness.js';
import { createDatabase, postgresUrl, startPostgres, type TestPostgres } from './postgres.js';
import { killSandbox, spawnSandbox, type ChildSandbox } from './spawn.js';

/** A PostgreSQL server for a file of tests: the run's (PETSTORE_TEST_STORE=postgres), else one of its own. */
export async function postgresForFile(): Promise<{ port: number; stop(): Promise<void>; own?: TestPostgres }> {
  const port = inject('postgresPort');
  if (port > 0) return { port, stop: () => Promise.resolve() };
  const own = await startPostgres();
  return { port: own.port, stop: () => own.stop(), own };
}

/** One sandbox process on a database, with ways to call it. */
export interface Instance {
  child: ChildSandbox;
  ctl: Control;
  /** Calls `/v1` + path with the default key; the status and parsed body. */
  call(path: string, init?: { method?: string; json?: unknown }): Promise<{ status: number; headers: Headers; body: unknown; text: string }>;
}

/** Starts a sandbox process with `--store url` (its own empty data folder, which it must not use). */
export async function startInstance(url: string, args: string[] = []): Promise<Instance> {
  const child = await spawnSandbox(join(tempDir(), 'unused.json'), ['--store', url, ...args]);
  const call: Instance['call'] = async (path, init = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${child.origin}${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined, text };
  };
  return { child, ctl: controlAt(child.origin, 'sandbox-admin'), call };
}

/** A fresh database on the server on `port`, as a `--store` URL. */
export async function freshStore(port: number): Promise<string> {
  return postgresUrl(port, await createDatabase(port, 'shared'));
}

export const stopInstances = (...instances: (Instance | undefined)[]): Promise<unknown> => Promise.all(instances.map((i) => killSandbox(i?.child)));

/** Instances A and B on one fresh database, as `twoInstances` gives them. */
export interface TwoInstances {
  server: Awaited<ReturnType<typeof postgresForFile>>;
  url: string;
  a: Instance;
  b: Instance;
}

/**
 * A file's two instances on one fresh database, each started with `args`:
 * started before its tests, one after the other (so the second finds the
 * schema made; the race of start-ups has its own test), and stopped after
 * them. Its fields are set once the file's tests run.
 */
export function twoInstances(args: string[]): TwoInstances {
  const two = {} as TwoInstances;
  beforeAll(async () => {
    two.server = await postgresForFile();
    two.url = await freshStore(two.server.port);
    two.a = await startInstance(two.url, args);
    two.b = await startInstance(two.url, args);
  }, 180_000);
  afterAll(async () => {
    await stopInstances(two.a, two.b);
    await two.server?.stop();
  });
  return two;
}
