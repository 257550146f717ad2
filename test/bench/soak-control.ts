/**
 * The soak's control operations: each control workspace runs one sequence
 * in turn (reset, creates, checkpoint, load, export, faults, restore or
 * delete), so that what it was told is exact; the ledger workspaces are
 * rotated (checked, then reset); and everything acknowledged is checked
 * once more at the end.
 */
import type { Pet } from '../support/pet-ledger.js';
import { control, expectStatus, jsonOf, v1, type SoakContext } from './soak-calls.js';
import { sha256, type ControlWorkspace, type LedgerWorkspace, type TrackedWorkspace } from './soak-ledger.js';
import { pick } from './soak-ops.js';

/** Checkpoints a control workspace keeps at most; past it the oldest is deleted. */
const KEPT_CHECKPOINTS = 5;

/** A workspace's export checked against what was acknowledged; its text, or undefined when it could not be read. */
async function exportChecked(ctx: SoakContext, ws: TrackedWorkspace, when: string): Promise<{ text: string; pets: Pet[] } | undefined> {
  const answer = await control(ctx, ws.key, 'GET', '/export');
  if (!expectStatus(ctx, `export (${ws.key})`, answer, 200)) return undefined;
  const pets = jsonOf<{ pets: Pet[] }>(ctx, 'export', answer)?.pets ?? [];
  ctx.findings.noteLost(ws.verify(pets, when));
  return { text: answer.text, pets };
}

/** A reset or load whose answer must report `count` pets: the workspace starts a new round, known only when acknowledged. */
async function replace(ctx: SoakContext, ws: TrackedWorkspace, what: string, path: string, body: unknown, count: number): Promise<void> {
  const answer = await control(ctx, ws.key, 'POST', path, body);
  if (!expectStatus(ctx, `${what} (${ws.key})`, answer, 200)) return ws.restart(undefined);
  const reported = jsonOf<{ count?: number }>(ctx, what, answer)?.count;
  ctx.findings.acknowledged += 1;
  if (reported !== count) ctx.findings.noteLost([`workspace ${ws.key}: ${what} acknowledged with ${reported} pets, not ${count}`]);
  ws.restart(count);
}

async function createTracked(ctx: SoakContext, ws: TrackedWorkspace): Promise<void> {
  const sent = ws.ledger.next();
  const answer = await v1(ctx, ws.key, 'POST', '/pets', sent);
  if (!answer) return void (ws.uncertain += 1);
  if (!expectStatus(ctx, `POST /v1/pets (${ws.key})`, answer, 201)) return ws.ledger.reject(sent);
  ctx.findings.acknowledged += 1;
  const problem = ws.ledger.acknowledge(sent, jsonOf(ctx, 'POST /v1/pets', answer));
  if (problem) ctx.findings.noteLost([`workspace ${ws.key}: ${problem}`]);
}

async function saveCheckpoint(ctx: SoakContext, ws: ControlWorkspace): Promise<void> {
  const exported = await exportChecked(ctx, ws, 'before a checkpoint');
  if (!exported) return;
  const name = `cp-${ws.cycle}`;
  const answer = await control(ctx, ws.key, 'POST', '/checkpoints', { name });
  if (!expectStatus(ctx, `save checkpoint ${name} (${ws.key})`, answer, 201)) return;
  ctx.findings.acknowledged += 1;
  ws.checkpoints.set(name, { count: exported.pets.length, hash: sha256(exported.text) });
}

/** Restores `name` and checks that the export is the one saved. */
async function restore(ctx: SoakContext, ws: ControlWorkspace, name: string): Promise<void> {
  const saved = ws.checkpoints.get(name);
  const answer = await control(ctx, ws.key, 'POST', `/checkpoints/${name}/restore`);
  if (!saved || !expectStatus(ctx, `restore ${name} (${ws.key})`, answer, 200)) return ws.restart(undefined);
  ws.restart(saved.count);
  const exported = await exportChecked(ctx, ws, `after restoring ${name}`);
  if (exported && sha256(exported.text) !== saved.hash)
    ctx.findings.noteLost([`workspace ${ws.key}: checkpoint ${name} restored another export than was saved`]);
}

async function restoreOrPrune(ctx: SoakContext, ws: ControlWorkspace): Promise<void> {
  const names = [...ws.checkpoints.keys()];
  if (names.length === 0) return;
  if (names.length <= KEPT_CHECKPOINTS) return restore(ctx, ws, pick(names));
  const oldest = names[0] as string;
  const answer = await control(ctx, ws.key, 'DELETE', `/checkpoints/${oldest}`);
  // Deleted, or perhaps deleted: no longer promised either way.
  ws.checkpoints.delete(oldest);
  expectStatus(ctx, `delete checkpoint ${oldest} (${ws.key})`, answer, 200);
}

/** A fault added to (or every third time, all faults cleared from) the faulted workspace. */
async function fault(ctx: SoakContext, ws: ControlWorkspace, faulted: LedgerWorkspace): Promise<void> {
  if (ws.cycle % 3 === 0) return void expectStatus(ctx, 'clear faults', await control(ctx, faulted.key, 'DELETE', '/faults'), 200);
  const operationId = pick(['listPets', 'createPet', 'getPet']);
  const body = pick([
    { operationId, status: pick([500, 503]), count: 1 + Math.floor(Math.random() * 5), rate: 0.5 },
    { operationId, latencyMs: { min: 1, max: 20 }, count: 10 },
  ]);
  expectStatus(ctx, `add fault ${JSON.stringify(body)}`, await control(ctx, faulted.key, 'POST', '/faults', body), 201);
}

/** The sequence, one step per call: every acknowledged write is checked by an export before a reset, load or restore replaces it. */
const STEPS: ((ctx: SoakContext, ws: ControlWorkspace, faulted: LedgerWorkspace) => Promise<void>)[] = [
  (ctx, ws) => replace(ctx, ws, 'reset', '/reset', { seed: ws.cycle, count: 5 + (ws.cycle % 10) }, 5 + (ws.cycle % 10)),
  (ctx, ws) => createTracked(ctx, ws),
  (ctx, ws) => createTracked(ctx, ws),
  (ctx, ws) => saveCheckpoint(ctx, ws),
  (ctx, ws) => replace(ctx, ws, 'load', '/load', { generate: { seed: 1000 + ws.cycle, count: 8 } }, 8),
  (ctx, ws) => createTracked(ctx, ws),
  async (ctx, ws) => void (await exportChecked(ctx, ws, 'after a load and a create')),
  (ctx, ws, faulted) => fault(ctx, ws, faulted),
  (ctx, ws) => restoreOrPrune(ctx, ws),
];

/** The next step of a control workspace's sequence. */
export async function controlStep(ctx: SoakContext, ws: ControlWorkspace, faulted: LedgerWorkspace): Promise<void> {
  const step = STEPS[ws.cycle % STEPS.length] as (typeof STEPS)[number];
  await step(ctx, ws, faulted);
  ws.cycle += 1;
}

/** A ledger workspace checked against its ledger, then reset to `seeded` pets, while its creates wait. */
export function rotate(ctx: SoakContext, ws: LedgerWorkspace, seeded: number): Promise<void> {
  return ws.rotate(async () => {
    await exportChecked(ctx, ws, `round ${ws.round}`);
    await replace(ctx, ws, 'reset', '/reset', { count: seeded }, seeded);
  });
}

/** After the load: every workspace's export against its ledger, every checkpoint listed and restored to what was saved. */
export async function verifyAll(ctx: SoakContext, ledgers: LedgerWorkspace[], controls: ControlWorkspace[]): Promise<void> {
  for (const ws of [...ledgers, ...controls]) await exportChecked(ctx, ws, 'at the end');
  for (const ws of controls) {
    const answer = await control(ctx, ws.key, 'GET', '/checkpoints');
    if (!expectStatus(ctx, `list checkpoints (${ws.key})`, answer, 200)) continue;
    const listed = new Map(
      (jsonOf<{ checkpoints: { name: string; count: number }[] }>(ctx, 'checkpoints', answer)?.checkpoints ?? []).map((c) => [c.name, c.count]),
    );
    for (const [name, saved] of ws.checkpoints) {
      if (listed.get(name) !== saved.count)
        ctx.findings.noteLost([`workspace ${ws.key}: checkpoint ${name} (${saved.count} pets) is listed with ${listed.get(name) ?? 'nothing'}`]);
      else await restore(ctx, ws, name);
    }
  }
}
