/**
 * Durability under SIGKILL: concurrent POSTs against the sandbox as a child
 * process, killed at different moments of the load, restarted on the same
 * data file each time. Every 201 must survive with identical fields, the
 * snapshot must stay valid JSON, and ids must keep increasing.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { tempDir } from '../support/harness.js';
import { expectSpecValid } from '../support/spec-check.js';
import { spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const AUTH = { authorization: 'Bearer sandbox-key' };
const STATUSES = ['available', 'pending', 'sold', undefined] as const;
/**
 * Kill moments: ms after the first 201 of a round (at once, early,
 * mid-load, late), or n 201s past the round's first fold. The last two
 * rounds fold the log into the data file once it holds more than 40
 * records and more than the data file's pets (`--compact-after 40`), so a
 * fold has surely happened by the kill, and the kill lands while the file
 * is rewritten or just around it.
 */
const ROUNDS: ({ killAfterMs: number } | { killPastFold: number })[] = [
  { killAfterMs: 0 },
  { killAfterMs: 25 },
  { killAfterMs: 150 },
  { killAfterMs: 500 },
  { killPastFold: 60 },
  { killPastFold: 190 },
];
const COMPACT_AFTER = 40;
const argsOf = (round: (typeof ROUNDS)[number]) => ('killPastFold' in round ? ['--compact-after', String(COMPACT_AFTER)] : []);
const WRITERS = 24;

const dir = tempDir('petstore-crash-');
const dataFile = join(dir, 'db.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs WRITERS concurrent POST loops until the server goes away; returns what got a 201. */
function postUntilKilled(sb: ChildSandbox, round: number, onAck: (acked: number) => void): Promise<Pet[]> {
  const acked: Pet[] = [];
  let n = 0;
  const writer = async (w: number) => {
    for (;;) {
      const status = STATUSES[(n += 1) % STATUSES.length];
      const sent = { name: `r${round}-w${w}-${n} ✓ "quoted"`, categoryId: round * 1_000_000 + n, ...(status ? { status } : {}) };
      let res: Response;
      try {
        res = await fetch(`${sb.origin}/v1/pets`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(sent) });
      } catch {
        return; // The server is gone: whatever was in flight was never acknowledged.
      }
      const body = (await res.json().catch(() => undefined)) as Pet | undefined;
      if (res.status !== 201 || !body) throw new Error(`POST answered ${res.status}: ${JSON.stringify(body)}`);
      expect(body).toEqual({ id: body.id, ...sent });
      acked.push(body);
      onAck(acked.length);
    }
  };
  return Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w))).then(() => acked);
}

function exportPets(sb: ChildSandbox): Promise<{ nextId: number; pets: Pet[] }> {
  return createControlClient({ origin: sb.origin, adminToken: 'sandbox-admin' }).call('exportWorkspace');
}

describe('crash safety (SIGKILL mid-load, restart on the same data file)', () => {
  it('keeps every acknowledged pet, a parseable data file and increasing ids', { timeout: 240_000 }, async () => {
    const acked = new Map<number, Pet>();
    let highestSeen = 0;
    for (const [round, moment] of ROUNDS.entries()) {
      const args = argsOf(moment);
      const sb = await spawnSandbox(dataFile, args);
      try {
        // Everything acknowledged in earlier rounds is back, field for field.
        const before = await exportPets(sb);
        const byId = new Map(before.pets.map((p) => [p.id, p]));
        expect(byId.size).toBe(before.pets.length);
        for (const pet of acked.values()) expect(byId.get(pet.id)).toEqual(pet);
        const ids = before.pets.map((p) => p.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(before.nextId).toBeGreaterThan(Math.max(highestSeen, ...ids));
        highestSeen = Math.max(highestSeen, ...ids);

        // A spot check through the public API and the independent spec check.
        const sample = [...acked.values()].at(-1);
        if (sample) {
          const res = await fetch(`${sb.origin}/v1/pets/${sample.id}`, { headers: AUTH });
          const body: unknown = await res.json();
          await expectSpecValid('getPet', { status: res.status, headers: res.headers, body });
          expect(body).toEqual(sample);
        }

        // Start-up folded the log into the data file: the first fold of the load comes past as many records as it holds pets.
        const killAt = 'killPastFold' in moment ? Math.max(COMPACT_AFTER, before.pets.length) + moment.killPastFold : 1;
        const results = await postUntilKilled(sb, round, (n) => {
          if (n === killAt) setTimeout(() => sb.child.kill('SIGKILL'), 'killAfterMs' in moment ? moment.killAfterMs : 0);
        });
        expect(await sb.exited).toBe('SIGKILL');
        expect(results.length).toBeGreaterThan(0);
        for (const pet of results) {
          // Ids are never reused: not across rounds, not within one.
          expect(acked.has(pet.id)).toBe(false);
          expect(pet.id).toBeGreaterThan(highestSeen);
          acked.set(pet.id, pet);
        }
        // The snapshot is whole after a kill at any moment (written atomically).
        const snapshot = JSON.parse(readFileSync(dataFile, 'utf8')) as { pets: Pet[] };
        if (args.length > 0) {
          // The log was folded into the file during this round's load, not only at start-up.
          const inFile = new Set(snapshot.pets.map((p) => p.id));
          expect(results.some((pet) => inFile.has(pet.id))).toBe(true);
        }
      } finally {
        if (sb.child.exitCode === null && sb.child.signalCode === null) sb.child.kill('SIGKILL');
        await sb.exited;
      }
    }

    // A last restart: everything is there, the file parses, the next id is fresh.
    const sb = await spawnSandbox(dataFile);
    try {
      const after = await exportPets(sb);
      const byId = new Map(after.pets.map((p) => [p.id, p]));
      for (const pet of acked.values()) expect(byId.get(pet.id)).toEqual(pet);
      const res = await fetch(`${sb.origin}/v1/pets`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'after', categoryId: 1 }),
      });
      const created = (await res.json()) as Pet;
      await expectSpecValid('createPet', { status: res.status, headers: res.headers, body: created });
      expect(created.id).toBeGreaterThan(Math.max(...after.pets.map((p) => p.id)));
      expect(acked.has(created.id)).toBe(false);
    } finally {
      await stopSandbox(sb);
    }
    const data = JSON.parse(readFileSync(dataFile, 'utf8')) as { pets: Pet[] };
    expect(data.pets.length).toBeGreaterThanOrEqual(acked.size + 1);
  });
});
