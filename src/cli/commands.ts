import { readFile, writeFile } from 'node:fs/promises';
import type { Config } from '../config.js';
import { readFixture, resolveFixture, type FixtureSet } from '../control/fixtures.js';
import { checkResetOptions, exportJson, loadWorkspace, resetWorkspace } from '../control/operations.js';
import { ApiError } from '../http/errors.js';
import { acquireLock, LockError, LockedError, runningServer } from '../lock.js';
import { loadSpec } from '../openapi/spec.js';
import { createValidators } from '../openapi/validate.js';
import { openWorkspaces } from '../sandbox.js';
import type { PetStore } from '../store/pet-store.js';
import { StoreError } from '../store/types.js';

/** The QA sub-commands and their own options. */
export const COMMANDS = ['seed', 'reset', 'load', 'export', 'journal'] as const;
export type Command = (typeof COMMANDS)[number];

export const COMMAND_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  empty: { type: 'boolean' },
  append: { type: 'boolean' },
  limit: { type: 'string' },
  unauthenticated: { type: 'boolean' },
} as const;

export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** A failure to report: the message is printed, the exit code is 1 (2 for usage). */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

interface Target {
  /** Runs a control request against a running sandbox. */
  remote?: (method: string, path: string, body?: unknown) => Promise<string>;
}

function remoteTarget(origin: string, config: Config, key: string | undefined): Target['remote'] {
  return async (method, path, body) => {
    const headers: Record<string, string> = { authorization: `Bearer ${config.adminToken}` };
    if (key) headers['x-sandbox-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${origin.replace(/\/+$/, '')}/__sandbox${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch (error) {
      throw new CommandError(`Cannot reach the sandbox at ${origin}: ${(error as Error).cause ?? (error as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not JSON: print as is
      }
      throw new CommandError(`The sandbox answered ${res.status}: ${message}`);
    }
    return text;
  };
}

/** A fixture argument: a path to a JSON file (has a '/' or ends in .json) or the name of a set in fixtures/. */
async function fixtureArgument(arg: string): Promise<FixtureSet | { fixture: string }> {
  if (!arg.includes('/') && !arg.endsWith('.json')) return { fixture: arg };
  try {
    return JSON.parse(await readFile(arg, 'utf8')) as FixtureSet;
  } catch (error) {
    throw new CommandError(`Cannot read fixture file ${arg}: ${(error as Error).message}`);
  }
}

/**
 * Runs a QA sub-command against the sandbox that serves the data file (found
 * through its lock file, or `--url`), or, for seed/reset/load/export when
 * none runs, directly on the data directory.
 */
export async function runCommand(command: Command, operands: string[], config: Config, extra: Record<string, string | boolean | undefined>, io: CommandIo): Promise<void> {
  const key = typeof extra.key === 'string' ? extra.key : undefined;
  const url = typeof extra.url === 'string' ? extra.url : runningServer(config.dataFile)?.origin;
  const remote = url ? remoteTarget(url, config, key) : undefined;
  const maxOperands = command === 'load' || command === 'export' ? 1 : 0;
  if (operands.length > maxOperands || (command === 'load' && operands.length === 0)) {
    throw new CommandError(command === 'load' ? 'Usage: load <fixture name | file.json> [--append]' : `'${command}' takes ${maxOperands ? 'at most one argument' : 'no arguments'}.`, 2);
  }

  if (command === 'journal') {
    if (!remote) throw new CommandError(`The journal lives in a running sandbox; none serves ${config.dataFile}. Start one or pass --url.`);
    const limit = typeof extra.limit === 'string' ? `?limit=${encodeURIComponent(extra.limit)}` : '';
    const which = extra.unauthenticated ? '/journal/unauthenticated' : '/journal';
    io.out(JSON.stringify(JSON.parse(await remote('GET', `${which}${limit}`)), null, 2));
    return;
  }

  if (remote) {
    if (command === 'seed' || command === 'reset') {
      const body = command === 'reset' && extra.empty ? { empty: true } : { seed: config.seed, count: config.count };
      io.out(await remote('POST', '/reset', body));
    } else if (command === 'load') {
      const set = await fixtureArgument(operands[0] as string);
      io.out(await remote('POST', '/load', { ...set, mode: extra.append ? 'append' : 'replace' }));
    } else {
      const text = await remote('GET', '/export');
      if (operands[0]) await writeFile(operands[0], text);
      else io.out(text);
    }
    return;
  }

  // No sandbox runs on this data file: work on the file itself, holding its lock so that no sandbox starts on it meanwhile.
  let lock;
  try {
    lock = await acquireLock(config.dataFile, command);
  } catch (error) {
    if (error instanceof LockError) throw new CommandError(error instanceof LockedError ? `${error.message} Retry once it has finished, or pass --url.` : error.message);
    throw error;
  }
  try {
    await onDataFile(command, operands, config, extra, io);
  } finally {
    lock.release();
  }
}

/** Runs seed/reset/load/export on the data directory itself (its lock held by the caller). */
async function onDataFile(command: Command, operands: string[], config: Config, extra: Record<string, string | boolean | undefined>, io: CommandIo): Promise<void> {
  const key = typeof extra.key === 'string' ? extra.key : undefined;
  const validators = createValidators(loadSpec());
  const workspaces = await openWorkspaces(config, { info: (t) => io.err(t), error: (t) => io.err(t) });
  try {
    await workspaces.use(key ?? (config.apiKeys[0] as string), (store) => runOnFile(command, operands, config, extra, io, store, validators));
  } catch (error) {
    if (error instanceof ApiError || error instanceof StoreError) throw new CommandError(error.message);
    throw error;
  } finally {
    await workspaces.close();
  }
}

/** seed, reset, load or export on a workspace's files, when no sandbox serves them. */
async function runOnFile(command: Command, operands: string[], config: Config, extra: Record<string, string | boolean | undefined>, io: CommandIo, store: PetStore, validators: ReturnType<typeof createValidators>): Promise<void> {
  if (command === 'seed' || command === 'reset') {
    await resetWorkspace(store, checkResetOptions({ seed: config.seed, count: config.count, empty: command === 'reset' && extra.empty === true }));
  } else if (command === 'load') {
    const arg = await fixtureArgument(operands[0] as string);
    const set = 'fixture' in arg && typeof arg.fixture === 'string' ? await readFixture(arg.fixture) : arg;
    const { pets, nextId } = resolveFixture(set, validators.schema('/components/schemas/Pet', 'record'));
    await loadWorkspace(store, pets, nextId, extra.append ? 'append' : 'replace');
  } else {
    if (operands[0]) await writeFile(operands[0], exportJson(store));
    else io.out([...exportJson(store)].join(''));
    return;
  }
  io.out(JSON.stringify({ file: store.file, count: store.size, nextId: store.nextId }));
}
