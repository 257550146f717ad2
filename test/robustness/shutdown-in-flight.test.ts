/**
 * SIGTERM while control operations are under way: the log said `stopped`
 * while the data file went on changing for ten more seconds (a request that
 * wrote once per provider state kept writing, through stores it opened
 * again). The sandbox, built as `npm run build` builds it, now stops only
 * once what is under way has written or given up: its `stopped` line comes
 * after the last change of any file of its data, nothing changes after it
 * exits, it exits 0, and its data file holds whole operations only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_STATES } from '../../src/control/provider-state-request.js';
import { generatePets } from '../../src/store/seed.js';
import { bundleSandbox } from '../support/bundle.js';
import { tempDir } from '../support/harness.js';
import { jsonLines } from '../support/log-lines.js';
import { killSandbox, spawnSandbox, type ChildSandbox } from '../support/spawn.js';

const KEY = 'stop-key';
/** Concurrent state changes, each of MAX_STATES states: one write each now, MAX_STATES each before. */
const CHANGES = 20;
/** The pets of the large reset under way at the same time. */
const RESET_COUNT = 1_000_000;
const SEED = 7;

let bin: string;
beforeAll(async () => {
  bin = await bundleSandbox('shutdown-in-flight');
}, 120_000);

/** Request `r`'s states: pets with ids r*1000+1 … r*1000+MAX_STATES, so that it leaves the last of them, alone, when done whole. */
const statesOf = (r: number) => Array.from({ length: MAX_STATES }, (_, i) => `a pet with id ${r * 1000 + i + 1} exists`);

/** Every file of the data's folder, by name, with its last change and size. */
function filesOf(dir: string): Record<string, [number, number]> {
  const files: Record<string, [number, number]> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const { mtimeMs, size } = statSync(path);
    files[path] = [mtimeMs, size];
  }
  return files;
}

/** What a whole operation leaves: the seeded pets, one state change's last pet, or the reset's pets. */
function wholeOutcome(data: { nextId: number; pets: { id: number; name: string; categoryId: number; status?: string }[] }): string {
  const ids = data.pets.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(data.nextId).toBeGreaterThan(ids.reduce((a, b) => Math.max(a, b), 0));
  if (data.pets.length === 1 && ids[0] !== undefined && ids[0] % 1000 === MAX_STATES) {
    expect(data.pets[0]).toEqual({ id: ids[0], name: 'Rex', categoryId: 1, status: 'available' });
    return 'a state change';
  }
  if (data.pets.length === RESET_COUNT) {
    // Every thousandth pet, and the last: a whole reset, not a mix.
    const expected = generatePets(SEED, RESET_COUNT);
    for (let i = 0; i < RESET_COUNT; i += 1000) expect(data.pets[i]).toEqual(expected[i]);
    expect(data.pets.at(-1)).toEqual(expected.at(-1));
    return 'the reset';
  }
  expect(data.pets).toEqual(generatePets(1, 10));
  return 'none';
}

type Status = number | 'gone';

/**
 * Starts the built sandbox, sends what `send` sends (not waiting for the
 * answers), sends SIGTERM `afterMs` later, and checks the stop: exit code 0,
 * one `stopped` line, no file of the data changed after it nor after the
 * exit. Resolves with the answers and the data file's content.
 */
async function stopDuring(send: (post: (path: string, token: string, body: unknown) => Promise<Status>) => Promise<Status>[], afterMs: number) {
  const dir = tempDir('petstore-stop-');
  const dataFile = join(dir, 'db.json');
  let sb: ChildSandbox | undefined;
  try {
    sb = await spawnSandbox(dataFile, ['--api-keys', KEY, '--seed', '1', '--count', '10', '--log-format', 'json'], { bin });
    const { origin } = sb;
    const post = (path: string, token: string, body: unknown): Promise<Status> =>
      fetch(`${origin}/__sandbox${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(
        (res) => res.status,
        () => 'gone' as const,
      );
    const answers = Promise.all(send(post));
    // The stop comes while they run (on a fast machine some may be done by then: the checks hold either way).
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    sb.child.kill('SIGTERM');
    const ended = await Promise.race([sb.ended, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 60_000))]);
    expect(ended, sb.output()).toEqual({ code: 0, signal: null });
    const statuses = await answers;
    // Done, refused as the stop began (503), cut off by its end, or judged late while a large operation held the event
    // loop (408: a connection's first bytes unread for 2 s).
    for (const status of statuses) expect([200, 408, 503, 'gone']).toContain(status);

    const stopped = jsonLines(sb.stdout()).filter((line) => line.msg === 'stopped');
    expect(stopped, sb.stdout()).toHaveLength(1);
    const stoppedAt = Date.parse(String(stopped[0]?.time));
    const files = filesOf(dir);
    // The log's time has whole milliseconds; a file's, finer ones.
    for (const [file, [mtimeMs]] of Object.entries(files)) expect(mtimeMs, `${file} changed after "stopped"`).toBeLessThan(stoppedAt + 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(filesOf(dir)).toEqual(files);
    return { statuses, outcome: wholeOutcome(JSON.parse(readFileSync(dataFile, 'utf8')) as Parameters<typeof wholeOutcome>[0]) };
  } finally {
    await killSandbox(sb);
  }
}

/**
 * A client refused wrote nothing; one that got its 200 wrote (a later
 * operation may have replaced it); one cut off by the stop's end may have
 * been written whole or not at all: `wholeOutcome` refuses a part.
 */
function expectOutcomeOf(statuses: Status[], outcome: string): void {
  if (statuses.every((status) => status === 408 || status === 503)) expect(outcome).toBe('none');
  if (statuses.includes(200)) expect(outcome).not.toBe('none');
}

describe('SIGTERM while control operations are under way', () => {
  it(`${CHANGES} state changes of ${MAX_STATES} states each: stopped after the last write, whole changes kept`, { timeout: 120_000 }, async () => {
    const { statuses, outcome } = await stopDuring(
      (post) => Array.from({ length: CHANGES }, (_, r) => post('/provider-states', KEY, { consumer: 'web', states: statesOf(r + 1) })),
      300,
    );
    expect(['none', 'a state change']).toContain(outcome);
    expectOutcomeOf(statuses, outcome);
  });

  it(`a reset to ${RESET_COUNT} pets: stopped after its write, which is whole or not made`, { timeout: 120_000 }, async () => {
    const { statuses, outcome } = await stopDuring((post) => [post('/reset', 'sandbox-admin', { seed: SEED, count: RESET_COUNT })], 300);
    expect(['none', 'the reset']).toContain(outcome);
    expectOutcomeOf(statuses, outcome);
  });
});
