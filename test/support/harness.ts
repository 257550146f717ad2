import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config/load.js';
import { parseJson } from '../../src/kernel/json.js';
import { migrate } from '../../src/store/postgres/migrations.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/server/sandbox.js';
import { createDatabase, postgresUrl } from './postgres.js';
import { expectSpecValid } from './spec-check.js';

export const KEY = 'sandbox-key';

export interface TestSandbox extends Sandbox {
  dir: string;
  /** The secret workspace ids are keyed with (hex): the data folder's `db.json.secret`, or the database's. */
  secret: string;
  config: Config;
  /** Calls `/v1` + path with the key (unless `key: null`), returns status, headers and parsed JSON body. */
  call(path: string, init?: CallInit): Promise<CallResult>;
  /** Like `call`, then checks the response against the spec for `operationId`. */
  op(operationId: string, path: string, init?: CallInit): Promise<CallResult>;
  /** Stops the server; removes its data folder unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface CallInit extends Omit<RequestInit, 'body'> {
  key?: string | null;
  json?: unknown;
  body?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // Tests read answers field by field and assert each read; the independent spec checker vouches for their shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

const madeHere = new Set<string>();
// Registered when a test file imports this module, so before that file's own hooks; after-hooks
// run in reverse order, so this runs last, once the file's sandboxes are stopped.
// A package test's folder holds a whole npm install (over 12,000 files): on a busy 2-core machine its
// removal can outlast the default 10 s hook timeout.
afterAll(() => {
  for (const dir of madeHere) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}, 120_000);

/** A temporary data folder, removed after the test file that made it (or earlier by the test itself). */
export function tempDir(prefix = 'petstore-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeHere.add(dir);
  return dir;
}

/** Configuration as the CLI would build it, on port 0 in a temporary folder. */
export function testConfig(args: string[] = [], dir = tempDir()): Config {
  return loadConfig(['--port', '0', '--data', join(dir, 'db.json'), ...args], {}).config;
}

/**
 * The backend test sandboxes run on: the data file, or PostgreSQL or memory
 * when the run says so (PETSTORE_TEST_STORE=postgres, `npm run test:postgres`;
 * PETSTORE_TEST_STORE=memory, `npm run test:memory`).
 */
export const TEST_STORE: 'file' | 'postgres' | 'memory' =
  process.env.PETSTORE_TEST_STORE === 'postgres' || process.env.PETSTORE_TEST_STORE === 'memory' ? process.env.PETSTORE_TEST_STORE : 'file';
export const onPostgres = TEST_STORE === 'postgres';
/** On the memory store nothing is on disk: tests of files or of what survives a restart do not apply. */
export const onMemory = TEST_STORE === 'memory';

/** The database of each data folder: a sandbox started again on the same folder finds what it kept. */
const databases = new Map<string, string>();

/**
 * `--store` for a sandbox of `dir` on the run's backend: nothing (its data
 * file), or a database of its own. A `db.json.secret` put in the folder
 * first becomes the database's secret, as the file backend would read it.
 */
async function storeArgs(dir: string): Promise<string[]> {
  if (onMemory) return ['--store', 'memory'];
  if (!onPostgres) return [];
  const port = inject('postgresPort');
  let database = databases.get(dir);
  if (database === undefined) {
    databases.set(dir, (database = await createDatabase(port, 'test')));
    const secretFile = join(dir, 'db.json.secret');
    if (existsSync(secretFile)) await seedSecret(postgresUrl(port, database), readFileSync(secretFile, 'utf8').trim());
  }
  return ['--store', postgresUrl(port, database)];
}

/** `store` for a library sandbox (`createSandbox`) on the run's backend: memory, a data file in a folder of its own, or a database of its own. */
export async function libraryStore(): Promise<string> {
  if (onMemory) return 'memory';
  if (!onPostgres) return join(tempDir(), 'db.json');
  const port = inject('postgresPort');
  return postgresUrl(port, await createDatabase(port, 'lib'));
}

/** The schema made and the shared row written with `secret`, before any sandbox starts on the database. */
async function seedSecret(url: string, secret: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migrate(pool);
    await pool.query("INSERT INTO petstore_state (id, mode, secret) VALUES (1, 'stateful', $1)", [secret]);
  } finally {
    await pool.end();
  }
}

/**
 * On memory, the secret to key workspace ids with, as the sandbox is given
 * it: a `db.json.secret` put in the folder first, else a new one.
 */
function memorySecret(dir: string): string {
  const file = join(dir, 'db.json.secret');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : randomBytes(32).toString('hex');
}

/** The secret a started sandbox keys workspace ids with. */
async function secretOf(config: Config, dir: string): Promise<string> {
  if (config.postgresUrl === undefined) return readFileSync(join(dir, 'db.json.secret'), 'utf8').trim();
  const pool = new pg.Pool({ connectionString: config.postgresUrl, max: 1 });
  try {
    return (await pool.query<{ secret: string }>('SELECT secret FROM petstore_state')).rows[0]?.secret ?? '';
  } finally {
    await pool.end();
  }
}

/** The pets a sandbox's storage holds, read from the storage itself (the data file, or the database), by id ascending. */
export async function storedPets(sb: TestSandbox): Promise<unknown[]> {
  if (sb.config.memory) {
    const text = await sb.workspaces.use(KEY, async (ws) => {
      let all = '';
      for await (const piece of ws.exportPieces()) all += piece;
      return all;
    });
    return (parseJson(text) as { pets: unknown[] }).pets;
  }
  if (sb.config.postgresUrl === undefined) return (JSON.parse(readFileSync(sb.config.dataFile, 'utf8')) as { pets: unknown[] }).pets;
  const pool = new pg.Pool({ connectionString: sb.config.postgresUrl, max: 1 });
  try {
    const { rows } = await pool.query<{ json: string }>('SELECT json FROM petstore_pets WHERE workspace = $1 ORDER BY id', [sb.workspaces.idOf(KEY)]);
    return rows.map((r) => JSON.parse(r.json) as unknown);
  } finally {
    await pool.end();
  }
}

/** Starts a real sandbox on 127.0.0.1, port 0, on the run's backend. */
export async function startTestSandbox(args: string[] = [], dir = tempDir(), options: SandboxOptions = {}): Promise<TestSandbox> {
  const config = testConfig([...(await storeArgs(dir)), ...args], dir);
  const memory = config.memory ? memorySecret(dir) : undefined;
  const sandbox = await startSandbox(config, undefined, memory === undefined ? options : { workspaceSecret: Buffer.from(memory, 'hex'), ...options });
  const call = async (path: string, init: CallInit = {}): Promise<CallResult> => {
    const { key = KEY, json, headers, ...rest } = init;
    const h = new Headers(headers);
    if (key !== null && !h.has('authorization')) h.set('authorization', `Bearer ${key}`);
    let body = init.body;
    if (json !== undefined) {
      body = JSON.stringify(json);
      if (!h.has('content-type')) h.set('content-type', 'application/json');
    }
    const res = await fetch(`${sandbox.baseUrl}${path}`, { ...rest, headers: h, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  const secret = await (memory === undefined ? secretOf(config, dir) : Promise.resolve(memory)).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  return {
    ...sandbox,
    dir,
    secret,
    config,
    call,
    async op(operationId, path, init) {
      const res = await call(path, init);
      await expectSpecValid(operationId, res);
      return res;
    },
    async stop(options = {}) {
      await sandbox.close();
      if (!options.keepData) rmSync(dir, { recursive: true, force: true });
    },
  };
}
