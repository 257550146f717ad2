/**
 * What a started sandbox tells people and scripts: the start-up line (its
 * address, the docs page, the QA console and where the admin token came
 * from) and the `--ready-file`, the same address as JSON for a script that
 * started it on `--port 0`.
 */
import { DEFAULT_ADMIN_TOKEN, type Config } from '../config/load.js';
import { removeFile, writeFileAtomic } from '../store/file/durable-entries.js';
import { UI_PATHS } from './pages.js';

/** Where a started sandbox answers: what the start-up line says and the ready file holds. */
export interface ReadyInfo {
  /** The interface's base address, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  origin: string;
  /** The port it listens on: the one the OS chose under `--port 0`. */
  port: number;
  /** The API docs page. */
  docs: string;
  /** The QA console. */
  console: string;
  /** The sandbox's process, to stop it by. */
  pid: number;
}

/** The addresses of a sandbox listening at `origin`, its first API at `base` (the Pet Store's `/v1` unless specs were given). */
export function readyInfo(origin: string, base = '/v1'): ReadyInfo {
  return {
    url: `${origin}${base}`,
    origin,
    port: Number(new URL(origin).port),
    docs: `${origin}${UI_PATHS.docs}`,
    console: `${origin}${UI_PATHS.console}`,
    pid: process.pid,
  };
}

/** Where the admin token came from, in words: the token itself only when it is the documented default. */
function adminTokenSource(config: Pick<Config, 'adminToken' | 'adminTokenFrom'>): string {
  if (config.adminTokenFrom === 'default') return `the default '${DEFAULT_ADMIN_TOKEN}'`;
  return `from ${config.adminTokenFrom}`;
}

/**
 * The one line that says the sandbox is up, written at every log level but
 * `silent`: `Pet Store sandbox 1.0.0 (stateful mode) listening on
 * http://127.0.0.1:4010/v1; docs http://127.0.0.1:4010/docs; console
 * http://127.0.0.1:4010/__sandbox/ui (admin token: the default 'sandbox-admin')`.
 * Scripts and tests find the address after `listening on`.
 */
export function startLine(info: ReadyInfo, version: string, mode: string, config: Pick<Config, 'adminToken' | 'adminTokenFrom'>): string {
  const where = `listening on ${info.url}; docs ${info.docs}; console ${info.console}`;
  return `Pet Store sandbox ${version} (${mode} mode) ${where} (admin token: ${adminTokenSource(config)})`;
}

/** Writes the ready file whole or not at all (a temp file renamed), so a script polling for it never reads half. */
export async function writeReadyFile(file: string, info: ReadyInfo): Promise<void> {
  await writeFileAtomic(file, [`${JSON.stringify(info)}\n`]);
}

/** Removes the ready file when the sandbox stops; one already gone is no error. */
export async function removeReadyFile(file: string): Promise<void> {
  await removeFile(file).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  });
}
