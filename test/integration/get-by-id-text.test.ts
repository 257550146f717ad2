/**
 * A read by id answers from a JSON text kept per pet (issue 27, item 3), as
 * a page of the list does: the text must follow every change of the
 * workspace, on the run's store (file, memory or PostgreSQL: `npm run
 * test:memory`, `npm run test:postgres`). Each read below is made twice, so
 * the second is answered from the kept text, and compared with the pet as
 * the export shows it at that moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlSandbox, type Control } from '../support/control-client.js';
import type { TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => ({ sb, ctl } = await startControlSandbox()));
afterAll(() => sb.stop());

const pet = (id: number, name: string) => ({ id, name, categoryId: 7, status: 'available' });

/** The pet `id` of `key`'s workspace as its export shows it, as JSON text; undefined when it has none. */
async function exported(key: string, id: number): Promise<string | undefined> {
  const { pets } = (await ctl('GET', '/export', { key })).body as { pets: { id: number }[] };
  const found = pets.find((p) => p.id === id);
  return found && JSON.stringify(found);
}

/** Reads pet `id` twice; both answers must be the export's pet, byte for byte, with its exact length (or both 404). */
async function expectRead(key: string, id: number): Promise<string | undefined> {
  const want = await exported(key, id);
  for (let i = 0; i < 2; i++) {
    const res = await sb.op('getPet', `/pets/${id}`, { key });
    if (want === undefined) {
      expect(res.status).toBe(404);
      continue;
    }
    expect(res.status).toBe(200);
    expect(res.text).toBe(want);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(want)));
  }
  return want;
}

describe('GET /v1/pets/{id} from a kept text', () => {
  it('follows resets, loads (replace and append), creates (whose 201 is the same text), checkpoint restores and copies', async () => {
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 1, count: 5 } });
    const first = await expectRead('key-a', 3);
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 2, count: 5 } });
    expect(await expectRead('key-a', 3)).not.toBe(first);

    await ctl('POST', '/load', { key: 'key-a', json: { nextId: 10, pets: [pet(3, 'Zoë 🐕 "loaded"')] } });
    expect(await expectRead('key-a', 3)).toContain('Zoë 🐕');
    await expectRead('key-a', 1);
    await expectRead('key-a', 4);

    await ctl('POST', '/load', { key: 'key-a', json: { mode: 'append', pets: [pet(4, 'Appended')] } });
    expect(await expectRead('key-a', 4)).toContain('Appended');

    await expectRead('key-a', 10);
    // The 201 is written from the text the store kept (issue 27, item 4): the same bytes a read gives, its length exact.
    const created = await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'Créé 🐈', categoryId: 2 } });
    expect([created.status, created.body.id]).toEqual([201, 10]);
    expect(created.headers.get('content-length')).toBe(String(Buffer.byteLength(created.text)));
    expect(await expectRead('key-a', 10)).toBe(created.text);

    expect((await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'kept' } })).status).toBe(201);
    await ctl('POST', '/load', { key: 'key-a', json: { pets: [pet(3, 'Replaced')] } });
    expect(await expectRead('key-a', 3)).toContain('Replaced');
    await expectRead('key-a', 10);
    expect((await ctl('POST', '/checkpoints/kept/restore', { key: 'key-a' })).status).toBe(200);
    expect(await expectRead('key-a', 3)).toContain('Zoë 🐕');
    expect(await expectRead('key-a', 10)).toBe(created.text);

    await ctl('POST', '/load', { key: 'key-b', json: { pets: [pet(3, 'From b')] } });
    await expectRead('key-b', 3);
    expect((await ctl('POST', '/copy', { key: 'key-b', headers: { 'x-sandbox-target-key': 'key-a' } })).status).toBe(200);
    expect(await expectRead('key-a', 3)).toContain('From b');
    await expectRead('key-a', 10);
  });
});
