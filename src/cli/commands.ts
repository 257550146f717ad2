import { readFile, writeFile } from 'node:fs/promises';
import type { Config } from '../config/load.js';
import { parseJson, stringifyJson } from '../kernel/json.js';
import { resolveFixture, type FixtureSet } from '../control/fixtures.js';
import { readFixture } from '../server/fixture-files.js';
import { checkResetOptions, loadWorkspace, resetWorkspace } from '../control/operations.js';
import { ControlError, createControlClient, type ControlClient } from '../control/client.js';
import { checkpointsOnFiles, checkpointUsageProblem, runCheckpointCommand } from './checkpoint-commands.js';
import { coverageReport, coverageUsageProblem } from './coverage-command.js';
import type { ControlBody } from '../control/routes.js';
import { ApiError } from '../kernel/errors.js';
import { acquireLock, LockError, LockedError, runningServer } from '../store/file/lock.js';
import { loadSpec } from '../openapi/load-spec.js';
import { createValidators } from '../openapi/validate.js';
import { openWorkspaces } from '../store/file/file-backend.js';
import { silentLogger } from '../kernel/logger.js';
import type { WorkspaceData } from '../store/backend.js';
import { StoreError } from '../store/types.js';
import type { CommandIo } from './command-io.js';
import { checkpointsOnDatabase, onDatabase, type WorkspaceCommandContext } from './database-command.js';
import { describeDatabase } from '../store/postgres/pool.js';

/** The QA sub-commands and their own options. */
export const COMMANDS = ['seed', 'reset', 'load', 'export', 'journal', 'pact', 'coverage', 'checkpoint', 'copy'] as const;
export type Command = (typeof COMMANDS)[number];

export const COMMAND_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  empty: { type: 'boolean' },
  append: { type: 'boolean' },
  limit: { type: 'string' },
  unauthenticated: { type: 'boolean' },
  consumer: { type: 'string' },
  overwrite: { type: 'boolean' },
  to: { type: 'string' },
  checkpoint: { type: 'string' },
  format: { type: 'string' },
  'fail-under': { type: 'string' },
  all: { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

/** A failure to report: the message is printed, the exit code is 1 (2 for usage). */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

/** One QA command as given on the command line, passed whole to the part that runs it. */
interface Invocation {
  command: Command;
  operands: string[];
  config: Config;
  extra: Record<string, string | boolean | undefined>;
  io: CommandIo;
  /** `--key`: the workspace worked on; where none is given, the client's or the first API key's. */
  key: string | undefined;
}

/** `ControlClient.call` for an operation chosen at run time. */
type CallAny = (operationId: string, input: unknown, options: { targetKey?: string }) => Promise<never>;

/** A control-plane failure as the commands report it. */
async function remote<T>(origin: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    if (error.status === undefined)
      throw new CommandError(
        `Cannot reach the sandbox at ${origin}: ${String((error.cause as Error | undefined)?.cause ?? (error.cause as Error | undefined)?.message)}`,
      );
    throw new CommandError(`The sandbox answered ${error.status}: ${error.body?.message ?? error.message}`);
  }
}

/** `--limit`: digits only, as the control plane takes it. */
function limitOption(raw: string | boolean | undefined): number | undefined {
  if (typeof raw !== 'string') return undefined;
  if (!/^\d+$/.test(raw)) throw new CommandError(`--limit must be a non-negative integer, got '${raw}'.`, 2);
  return Number(raw);
}

/** The commands that talk to a running sandbox, through its control plane. */
async function runRemote({ command, operands, config, extra, io }: Invocation, client: ControlClient): Promise<void> {
  const at = <T>(call: () => Promise<T>) => remote(client.origin, call);
  if (command === 'checkpoint' || command === 'copy') {
    io.out(
      await runCheckpointCommand(command, operands, extra, (operationId, input, targetKey) =>
        at(() => (client.call as CallAny)(operationId, input, targetKey === undefined ? {} : { targetKey })),
      ),
    );
  } else if (command === 'pact') {
    // The pact is small (one interaction per distinct request): written as the sandbox sent it, or printed.
    const query = { consumer: extra.consumer as string, unauthenticated: extra.unauthenticated === true };
    const text = await at(() => client.text('exportPact', { query }));
    if (operands[0]) await writeFile(operands[0], text);
    else io.out(text);
  } else if (command === 'coverage') {
    const { text, missed } = await at(() => coverageReport(client, extra));
    if (operands[0]) await writeFile(operands[0], text);
    else io.out(text.replace(/\n$/, ''));
    if (missed) throw new CommandError(missed);
  } else if (command === 'journal') {
    const query = { limit: limitOption(extra.limit) };
    const journal =
      extra.unauthenticated ? await at(() => client.call('readUnauthenticatedJournal', { query })) : await at(() => client.call('readJournal', { query }));
    io.out(stringifyJson(journal, 2));
  } else if (command === 'seed' || command === 'reset') {
    const body = command === 'reset' && extra.empty ? { empty: true } : { seed: config.seed, count: config.count };
    io.out(JSON.stringify(await at(() => client.call('resetWorkspace', { body }))));
  } else if (command === 'load') {
    const set = await fixtureArgument(operands[0] as string);
    // A file's set goes to the sandbox as it is: the control plane checks it against the spec.
    const body = { ...set, mode: extra.append ? 'append' : 'replace' } as ControlBody<'loadFixture'>;
    io.out(JSON.stringify(await at(() => client.call('loadFixture', { body }))));
  } else {
    // The export's text as sent: written as is, never parsed (a workspace may hold hundreds of MB).
    const text = await at(() => client.text('exportWorkspace'));
    if (operands[0]) await writeFile(operands[0], text);
    else io.out(text);
  }
}

/** A fixture argument: a path to a JSON file (has a '/' or ends in .json) or the name of a set in fixtures/. */
async function fixtureArgument(arg: string): Promise<FixtureSet | { fixture: string }> {
  if (!arg.includes('/') && !arg.endsWith('.json')) return { fixture: arg };
  try {
    return parseJson(await readFile(arg, 'utf8')) as FixtureSet;
  } catch (error) {
    throw new CommandError(`Cannot read fixture file ${arg}: ${(error as Error).message}`);
  }
}

/**
 * Runs a QA sub-command against the sandbox that serves the data file (found through its lock file, or `--url`),
 * or, for all but journal, pact and coverage when none runs, directly on the data directory.
 */
export async function runCommand(
  command: Command,
  operands: string[],
  config: Config,
  extra: Record<string, string | boolean | undefined>,
  io: CommandIo,
): Promise<void> {
  const run: Invocation = { command, operands, config, extra, io, key: typeof extra.key === 'string' ? extra.key : undefined };
  // A database is worked on directly (no lock to find a running sandbox by); a data file through the sandbox serving it, if one does.
  const url =
    typeof extra.url === 'string' ? extra.url
    : config.postgresUrl === undefined && !config.memory ? runningServer(config.dataFile)?.origin
    : undefined;
  const maxOperands = command === 'load' || command === 'export' || command === 'pact' ? 1 : 0;
  if (command === 'checkpoint' || command === 'copy' || command === 'coverage') {
    const problem = command === 'coverage' ? coverageUsageProblem(operands, extra) : checkpointUsageProblem(command, operands, extra);
    if (problem) throw new CommandError(problem, 2);
  } else if (operands.length > maxOperands || (command === 'load' && operands.length === 0)) {
    throw new CommandError(
      command === 'load' ? 'Usage: load <fixture name | file.json> [--append]' : `'${command}' takes ${maxOperands ? 'at most one argument' : 'no arguments'}.`,
      2,
    );
  }
  if (command === 'pact' && typeof extra.consumer !== 'string') throw new CommandError('Usage: pact --consumer <name> [file.json] [--unauthenticated]', 2);

  if (url) return runRemote(run, createControlClient({ origin: url, adminToken: config.adminToken, ...(run.key ? { key: run.key } : {}) }));
  if (config.memory)
    throw new CommandError(`--store memory keeps nothing outside a running sandbox, so '${command}' has nothing to work on: pass --url of one.`);
  if (command === 'journal' || command === 'pact' || command === 'coverage') throw new CommandError(noJournal(config));
  // A database needs no lock: the command works through the same transactions a sandbox uses.
  if (config.postgresUrl !== undefined) {
    const work =
      command === 'checkpoint' || command === 'copy' ?
        checkpointsOnDatabase(command, operands, { config, extra, io, fail: (message) => new CommandError(message) }).then((text) => io.out(text))
      : onDatabase(config, extra, io, (context, ws) => runOnFile(command, operands, context, ws));
    return work.catch((error: unknown) => {
      throw error instanceof ApiError || error instanceof StoreError ? new CommandError(error.message) : error;
    });
  }

  // No sandbox runs on this data file: work on the file itself, holding its lock so that no sandbox starts on it meanwhile.
  let lock;
  try {
    lock = await acquireLock(config.dataFile, command);
  } catch (error) {
    if (error instanceof LockError)
      throw new CommandError(error instanceof LockedError ? `${error.message} Retry once it has finished, or pass --url.` : error.message);
    throw error;
  }
  try {
    if (command === 'checkpoint' || command === 'copy')
      io.out(await checkpointsOnFiles(command, operands, { config, extra, err: io.err, fail: (message) => new CommandError(message) }));
    else await onDataFile(run);
  } finally {
    lock.release();
  }
}

/** Why `journal`, `pact` and `coverage` cannot run: no sandbox to ask, on the data file or the database (named without its password). */
function noJournal(config: Config): string {
  if (config.postgresUrl === undefined) return `The journal lives in a running sandbox; none serves ${config.dataFile}. Start one or pass --url.`;
  const { database, user } = describeDatabase(config.postgresUrl);
  const on = `the database ${database}${user ? ` (user ${user})` : ''}`;
  return `The journal lives in the memory of a running sandbox, not in ${on}: pass --url of a sandbox.`;
}

/** Runs seed/reset/load/export on the data directory itself (its lock held by the caller). */
async function onDataFile({ command, operands, config, extra, io, key }: Invocation): Promise<void> {
  const validators = createValidators(loadSpec());
  const say = (t: string) => io.err(t);
  const workspaces = await openWorkspaces(config, { ...silentLogger, info: say, warn: say, error: say });
  try {
    const k = key ?? (config.apiKeys[0] as string);
    await workspaces.use(k, (store) => runOnFile(command, operands, { config, extra, io, validators, where: { file: workspaces.fileFor(k) } }, store));
  } catch (error) {
    if (error instanceof ApiError || error instanceof StoreError) throw new CommandError(error.message);
    throw error;
  } finally {
    await workspaces.close();
  }
}

/** seed, reset, load or export on a workspace's files, when no sandbox serves them. */
async function runOnFile(command: Command, operands: string[], context: WorkspaceCommandContext, store: WorkspaceData): Promise<void> {
  const { config, extra, io, validators } = context;
  if (command === 'seed' || command === 'reset') {
    await resetWorkspace(store, checkResetOptions({ seed: config.seed, count: config.count, empty: command === 'reset' && extra.empty === true }));
  } else if (command === 'load') {
    const arg = await fixtureArgument(operands[0] as string);
    const set = 'fixture' in arg && typeof arg.fixture === 'string' ? await readFixture(arg.fixture) : arg;
    const { pets, nextId } = resolveFixture(set, validators.schema('/components/schemas/Pet', 'record'));
    await loadWorkspace(store, pets, nextId, extra.append ? 'append' : 'replace');
  } else {
    if (operands[0]) await writeFile(operands[0], store.exportPieces());
    else io.out(await joinPieces(store.exportPieces()));
    return;
  }
  const { count, nextId } = await store.summary();
  io.out(JSON.stringify({ ...context.where, count, nextId }));
}

/** Pieces of text, joined. */
async function joinPieces(pieces: Iterable<string> | AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}
