/**
 * Power cuts: the sandbox (bundled as `npm run build` bundles it, a real process)
 * serves a data folder on a FUSE file system that keeps only what was
 * fsynced (test/support/powercut-fs.py: file data at its fsync, a folder's
 * entries at the folder's fsync, as LazyFS does). The power is cut at the
 * moments that matter (the data folder made, the secret linked, the first
 * data file renamed, a log append, a log fsync, compaction's rename and the
 * log emptied after it, a checkpoint's folder and file, a reset, a load) and
 * at random moments; the sandbox is killed (SIGKILL) at the cut, everything
 * not fsynced is dropped, and it restarts on what survived. Every
 * acknowledged pet, reset, load and checkpoint must be there, no id reused.
 *
 * Another test makes a folder's sync fail (EIO) after a reset's rename.
 *
 * The last tests show the check can fail: the same scenarios against a
 * bundle built with one folder fsync taken out of the source on the way
 * (test/support/bundle.ts patches the text; the product has no switch for
 * it) lose acknowledged pets, and the check says so.
 *
 * POWER_CUT_SEED=<n> repeats the random moments of a failed run;
 * POWER_CUT_DEBUG=1 prints each round's steps.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleSandbox, type SourcePatch } from '../support/bundle.js';
import { generatePets } from '../../src/store/seed.js';
import { tempDir, type CallResult } from '../support/harness.js';
import { createPet, DEFAULT_KEY, expectError, exportWorkspace } from '../support/ledger-calls.js';
import { World } from '../support/power-cut-world.js';
import { mountPowerCut, powerCutUnavailable, unmountPowerCut, type CutOp, type PowerCutDisk } from '../support/powercut.js';
import { spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const unavailable = powerCutUnavailable();
// CI installs FUSE (.ci/run): there, a file system that cannot be mounted is a failure, not a reason to skip.
if (unavailable && process.env.CI) throw new Error(`The power-cut test cannot run in CI: ${unavailable}`);
const skipped = unavailable ? ` (skipped: ${unavailable})` : '';

const SEED = 1;
const COUNT = 5;
const ARGS = ['--seed', String(SEED), '--count', String(COUNT), '--compact-after', '30'];
/** Random moments, reproducible: the seed is printed with any failure. */
const RUN_SEED = Number(process.env.POWER_CUT_SEED ?? Date.now() % 100_000);
let state = RUN_SEED;
const random = (below: number) => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) % below;

type Arm = [CutOp, RegExp, number, 'before' | 'after'];

interface Round {
  name: string;
  /** Armed before the sandbox starts: a cut during start-up. */
  atStart?: Arm;
  act?: (sb: ChildSandbox, disk: PowerCutDisk, world: World) => Promise<void>;
}

const cutWithin = (disk: PowerCutDisk, ms: number) => setTimeout(() => void disk.cut().catch(() => undefined), random(ms));
const loaded = (tag: number) => [3, 1, 2].map((n) => ({ id: 100 * tag + n, name: `loaded-${tag}-${n}`, categoryId: n, status: 'sold' }));

/** Start-ups in a folder that does not exist yet (`<mount>/data/db.json`: one missing level, as a fresh clone's ./data), cut at each step that makes it. */
const FIRST_STARTS: Round[] = [
  { name: 'the folders made', atStart: ['mkdir', /^data$/, 1, 'after'] },
  { name: 'the secret linked', atStart: ['link', /^db\.json\.secret$/, 1, 'after'] },
  { name: 'the first data file renamed into place', atStart: ['rename', /^db\.json$/, 1, 'after'] },
  { name: 'the log created', atStart: ['create', /^db\.json\.log$/, 1, 'after'] },
  { name: 'the first log fsync', atStart: ['fsync', /^db\.json\.log$/, 1, 'after'], act: (sb, _disk, w) => w.create(sb.origin, 20, 4) },
];

/** Acknowledged creates, then the power cut: what a store that forgets a folder sync loses. */
const createThenCut = (count: number): Round => ({ name: `${count} creates acknowledged`, act: (sb, _disk, w) => w.create(sb.origin, count, 4) });

/** A first start in a fresh folder, then the moments of a sandbox's life, each followed by a cut. */
const ROUNDS: Round[] = [
  { name: 'a random moment of the first creates in a fresh folder', act: (sb, disk, w) => (cutWithin(disk, 400), w.create(sb.origin, 200, 8)) },
  { name: 'a log append', act: async (sb, disk, w) => (await disk.arm('write', /^db\.json\.log$/, 2 + random(20), 'before'), w.create(sb.origin, 200, 8)) },
  { name: 'a log fsync', act: async (sb, disk, w) => (await disk.arm('fsync', /^db\.json\.log$/, 2 + random(20), 'after'), w.create(sb.origin, 200, 8)) },
  { name: "compaction's rename", act: async (sb, disk, w) => (await disk.arm('rename', /^db\.json$/, 1, 'after'), w.create(sb.origin, 200, 8)) },
  {
    name: 'the log emptied after compaction',
    act: async (sb, disk, w) => (await disk.arm('truncate', /^db\.json\.log$/, 1, 'after'), w.create(sb.origin, 200, 8)),
  },
  {
    name: "a checkpoint's folder made",
    act: async (sb, disk, w) => {
      await w.create(sb.origin, 10, 4);
      await disk.arm('mkdir', /^[0-9a-f]{16}$/, 1, 'after');
      await w.saveCheckpoint(sb.origin, 'first');
    },
  },
  {
    name: 'a random moment after a checkpoint saved',
    act: async (sb, disk, w) => {
      await w.saveCheckpoint(sb.origin, 'second');
      cutWithin(disk, 300);
      await w.create(sb.origin, 200, 8);
    },
  },
  {
    name: "a checkpoint file's rename",
    act: async (sb, disk, w) => (await disk.arm('rename', /^third\.json$/, 1, 'after'), w.saveCheckpoint(sb.origin, 'third')),
  },
  {
    name: 'a reset',
    act: async (sb, disk, w) => {
      await w.create(sb.origin, 10, 4);
      await disk.arm('rename', /^db\.json$/, 1, 'after');
      await w.replace(sb.origin, { reset: { seed: 7, count: 4 } });
    },
  },
  {
    name: 'a random moment after a reset',
    act: async (sb, disk, w) => {
      await w.replace(sb.origin, { reset: { seed: 8, count: 3 } });
      cutWithin(disk, 300);
      await w.create(sb.origin, 200, 8);
    },
  },
  {
    name: 'a load',
    act: async (sb, disk, w) => {
      await w.create(sb.origin, 10, 4);
      await disk.arm('rename', /^db\.json$/, 1, 'after');
      await w.replace(sb.origin, { load: loaded(1) });
    },
  },
  {
    name: 'a random moment after a load',
    act: async (sb, disk, w) => {
      await w.replace(sb.origin, { load: loaded(2) });
      cutWithin(disk, 300);
      await w.create(sb.origin, 200, 8);
    },
  },
];

/** One disk and one data file across power cuts. */
class Machine {
  image: string;
  readonly dataFile: string;
  readonly world = new World(SEED, COUNT);
  private readonly work = tempDir('petstore-power-');

  /** `data`: the data file in the mount, in folders that do not exist yet. */
  constructor(
    private readonly bin: string,
    data = 'data/db.json',
  ) {
    this.image = join(this.work, 'image-0');
    mkdirSync(this.image);
    this.dataFile = join(this.work, 'mnt', data);
  }

  /** Each round in turn; the problems each boot found, by the cut before it. */
  async run(rounds: Round[]): Promise<Record<string, string[]>> {
    const found: Record<string, string[]> = {};
    let before = 'nothing';
    for (const round of rounds) {
      const problems = await this.round(round);
      if (problems.length > 0) found[`after a cut at "${before}" (POWER_CUT_SEED=${RUN_SEED})`] = problems;
      before = round.name;
    }
    const problems = await this.last();
    if (problems.length > 0) found[`after a cut at "${before}" (POWER_CUT_SEED=${RUN_SEED})`] = problems;
    return found;
  }

  /** Boots on what survived, checks it (problems returned), runs the round, cuts the power. */
  private async round(round: Round): Promise<string[]> {
    const t0 = Date.now();
    const log = (what: string) => process.env.POWER_CUT_DEBUG && console.error(`${round.name}: ${what} at ${Date.now() - t0} ms`);
    const disk = await mountPowerCut(this.image, this.work);
    log('mounted');
    let child: ChildProcess | undefined;
    let stopped = false;
    // Killed at the cut, then let go: a process whose request the file system holds cannot exit before it is answered.
    const killed = disk.cutDone.then(() => (child?.kill('SIGKILL'), disk.release()));
    try {
      if (round.atStart) await disk.arm(...round.atStart);
      // A cut armed for start-up may come before the sandbox listens, or while it is checked: then the next boot checks.
      const cutFirst = async (error: unknown) => {
        if (await Promise.race([disk.cutDone.then(() => true), delay(1000).then(() => false)])) return undefined;
        throw error;
      };
      const sb = await spawnSandbox(this.dataFile, ARGS, { bin: this.bin, onChild: (c) => (child = c) }).catch(cutFirst);
      log('started');
      const problems = (sb && (await this.world.check(sb.origin).catch(cutFirst))) ?? [];
      log('checked');
      if (sb && round.act) await round.act(sb, disk, this.world);
      log('acted');
      await disk.cut();
      log(`cut at ${await disk.cutDone}`);
      await killed;
      if (child && child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child?.once('exit', resolve));
      log('killed');
      this.image = await disk.stop();
      log('stopped');
      stopped = true;
      return problems;
    } finally {
      child?.kill('SIGKILL');
      if (!stopped) unmountPowerCut(this.work);
    }
  }

  /** Boots once more, checks, and stops cleanly. */
  private async last(): Promise<string[]> {
    const disk = await mountPowerCut(this.image, this.work);
    try {
      const sb = await spawnSandbox(this.dataFile, ARGS, { bin: this.bin });
      const problems = await this.world.check(sb.origin);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      this.image = await disk.stop();
      return problems;
    } finally {
      unmountPowerCut(this.work);
    }
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A folder sync that fails (EIO, once) right after the rename that commits a
 * reset: the new data is served, the answer says it may not survive a power
 * cut, the next create is refused while the folder's sync fails again, and
 * once it succeeds the reset and the creates after it survive a power cut.
 */
const UNSYNCED_RESET: Round = {
  name: 'creates after a reset whose folder could not be synced at once',
  act: async (sb, disk, w) => {
    await w.create(sb.origin, 5, 2);
    await disk.arm('fsyncdir', /^data$/, 1, 'fail');
    const res = await w.replace(sb.origin, { reset: { seed: 3, count: 2 } }, [503]);
    expectError(res as CallResult, 503, 'service_unavailable', /replaced.*EIO.*power cut/);
    expect((await exportWorkspace(sb.origin)).pets).toEqual(generatePets(3, 2));
    w.adoptPending();
    await disk.arm('fsyncdir', /^data$/, 1, 'fail');
    expectError(await createPet(sb.origin, DEFAULT_KEY, w.ledger), 503, 'service_unavailable', /I\/O error/);
    await w.create(sb.origin, 5, 2);
    expect(w.ledger.size).toBe(5);
  },
};

/** Builds that skip one folder sync: the source text taken out on the way (see test/support/bundle.ts). */
const ENTRIES = 'src/store/file/durable-entries.ts';
const BROKEN: { name: string; patch: SourcePatch; rounds: Round[] }[] = [
  {
    name: "a new folder's parent not synced",
    patch: { file: ENTRIES, from: 'if (created) await syncDir(parent);', to: 'if (created) await Promise.resolve(parent);' },
    rounds: [createThenCut(20)],
  },
  {
    name: "the folder of a data file's rename not synced",
    patch: {
      file: ENTRIES,
      from: 'await syncDir(dir).catch((error: unknown) => {\n    throw new RenamedNotDurable',
      to: 'await Promise.resolve().catch((error: unknown) => {\n    throw new RenamedNotDurable',
    },
    // Folded into the data file twice (past --compact-after 30 records, then past the 36 pets of the data file), the log emptied after each.
    rounds: [createThenCut(100)],
  },
];

describe.skipIf(unavailable)(`power cuts, on a file system that keeps only what was fsynced${skipped}`, () => {
  let bin: string;
  beforeAll(async () => {
    bin = await bundleSandbox('power-cut');
  }, 60_000);

  it('a first start in a new folder, cut at each step: starts again, with nothing lost', { timeout: 60_000 }, async () => {
    expect(await new Machine(bin, 'data/db.json').run(FIRST_STARTS)).toEqual({});
  });

  it('keeps every acknowledged pet, reset, load and checkpoint, and reuses no id', { timeout: 120_000 }, async () => {
    expect(await new Machine(bin).run(ROUNDS)).toEqual({});
  });

  it('a folder that cannot be synced after a reset: answered 503, creates wait, nothing lost once it syncs', { timeout: 60_000 }, async () => {
    expect(await new Machine(bin).run([UNSYNCED_RESET])).toEqual({});
  });

  it.each(BROKEN)('a build where $name loses acknowledged pets, and the check says so', { timeout: 60_000 }, async ({ name, patch, rounds }) => {
    const broken = await bundleSandbox(`power-cut-broken-${BROKEN.findIndex((b) => b.name === name)}`, patch);
    const found = Object.values(await new Machine(broken).run(rounds)).flat();
    expect(
      found.some((problem) => /was answered 201 and is missing/.test(problem)),
      found.join('\n'),
    ).toBe(true);
  });
});
