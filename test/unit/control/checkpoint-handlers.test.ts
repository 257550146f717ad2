/**
 * The checkpoint operations without HTTP: a backend that keeps no
 * checkpoints (none does today: both keep them) answers 501
 * `not_implemented` for each of them, and a copy of the current data still
 * works there, as it needs no checkpoint store.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkpointHandlers, type CheckpointContext } from '../../../src/control/checkpoint-handlers.js';
import { ApiError } from '../../../src/kernel/errors.js';
import { createValidators } from '../../../src/openapi/validate.js';
import { Workspaces } from '../../../src/store/file/workspaces.js';
import { tempDir } from '../../support/harness.js';
import { spec } from '../../support/operation-request.js';

const workspaces = await Workspaces.open({
  dataFile: join(tempDir('petstore-cp-handlers-'), 'db.json'),
  defaultKey: 'a',
  store: { seed: { seed: 1, count: 4 } },
});
afterAll(() => workspaces.close());

const keyOf = (raw: string | undefined) => raw ?? 'a';
const context: CheckpointContext = {
  deps: { workspaces, checkPet: createValidators(spec).schema('/components/schemas/Pet', 'record') },
  keyOf,
  workspaceOf: (raw) => workspaces.idOf(keyOf(raw)),
  summary: (key) => workspaces.use(key, (store) => ({ workspace: workspaces.idOf(key), ...store.summary() })),
};
const handlers = checkpointHandlers(context);
/** A call as the router hands it over (its request already checked against the spec). */
const call = (fields: Record<string, unknown>): never => ({ key: undefined, target: undefined, query: {}, ...fields }) as never;

describe('checkpoint operations on a backend without checkpoints', () => {
  it.each([
    ['listCheckpoints', () => handlers.listCheckpoints(call({ path: {}, body: undefined }))],
    ['saveCheckpoint', () => handlers.saveCheckpoint(call({ path: {}, body: { name: 'x' } }))],
    ['restoreCheckpoint', () => handlers.restoreCheckpoint(call({ path: { name: 'x' }, body: undefined }))],
    ['deleteCheckpoint', () => handlers.deleteCheckpoint(call({ path: { name: 'x' }, body: undefined }))],
    ['copyWorkspace from a checkpoint', () => handlers.copyWorkspace(call({ target: 'b', path: {}, body: { checkpoint: 'x' } }))],
  ] as [string, () => unknown][])('%s answers 501 not_implemented', async (_name, run) => {
    const error = await Promise.resolve()
      .then(run)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'not_implemented', status: 501 });
  });

  it('copies the current data all the same, byte for byte', async () => {
    const text = (key: string) => workspaces.use(key, async (store) => [...store.exportPieces()].join(''));
    await workspaces.use('b', (store) => store.replace([]));
    const answer = await handlers.copyWorkspace(call({ target: 'b', path: {}, body: undefined }));
    expect(answer).toMatchObject({ from: workspaces.idOf('a'), to: workspaces.idOf('b'), count: 4, nextId: 5 });
    expect(await text('b')).toBe(await text('a'));
  });
});
