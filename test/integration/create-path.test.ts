/**
 * How many of src/'s files a create crosses from the socket to its
 * fdatasync, on the server (the data file's store): V8's precise coverage
 * is reset just before the request is sent and read at the moment the
 * commit log syncs the pet, so it holds exactly the functions the request
 * ran on its way to the disk (the report of its answer comes after, and is
 * not counted). docs/development.md says why the number matters; with
 * CREATE_PATH_FUNCTIONS=1 a failure lists the functions each file ran.
 */
import { open } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/server/sandbox.js';
import { KEY, testConfig } from '../support/harness.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
/** The files a create may cross, at most (docs/development.md, "The way of a create"). */
const MOST = 15;

interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { count: number }[] }[];
}

const session = new Session();
let sandbox: Sandbox;
/** The coverage read at the next datasync, once armed. */
let armed: ((coverage: ScriptCoverage[]) => void) | undefined;

beforeAll(async () => {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  // Every FileHandle shares one prototype: its datasync reads the coverage first, when armed.
  const probe = await open(fileURLToPath(import.meta.url), 'r');
  const prototype = Object.getPrototypeOf(probe) as { datasync: (...args: unknown[]) => Promise<void> };
  await probe.close();
  const datasync = prototype.datasync;
  prototype.datasync = async function (this: unknown, ...args: unknown[]) {
    const take = armed;
    armed = undefined;
    if (take) take(((await session.post('Profiler.takePreciseCoverage')) as { result: ScriptCoverage[] }).result);
    return datasync.apply(this, args);
  };
  // The data file's store on every run: the fdatasync is what is measured to.
  sandbox = await startSandbox(testConfig(['--log-level', 'silent']));
});
afterAll(async () => {
  await sandbox?.close();
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();
});

/** The src/ files that ran a function since the last reset, as paths under src/. */
const crossed = (coverage: ScriptCoverage[]): string[] =>
  coverage
    .filter(({ url }) => url.startsWith(`file://${SRC}`))
    .filter(({ functions }) => functions.some(({ ranges }) => (ranges[0]?.count ?? 0) > 0))
    .map(({ url, functions }) =>
      `${url.slice(`file://${SRC}`.length)} ${
        process.env.CREATE_PATH_FUNCTIONS ?
          functions
            .filter(({ ranges }) => (ranges[0]?.count ?? 0) > 0)
            .map((f) => f.functionName || '(anonymous)')
            .join(',')
        : ''
      }`.trim(),
    )
    .sort();

/** A create over HTTP, with the coverage at its fdatasync. */
async function createAndTrace(name: string): Promise<string[]> {
  const synced = new Promise<ScriptCoverage[]>((resolve) => (armed = resolve));
  await session.post('Profiler.takePreciseCoverage');
  const created = await fetch(`${sandbox.baseUrl}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(created.status).toBe(201);
  return crossed(await synced);
}

describe('a create on the server', () => {
  it(`crosses at most ${MOST} files of src/ from the socket to its fdatasync`, async () => {
    // Warm: the first create opens the workspace and loads what it needs; the measured one is a steady create.
    for (let i = 0; i < 3; i++) await createAndTrace(`Warm ${i}`);
    const files = await createAndTrace('Counted');
    expect(files.length, files.join('\n')).toBeGreaterThan(3);
    expect(files.length, `${files.length} files:\n${files.join('\n')}`).toBeLessThanOrEqual(MOST);
  });
});
