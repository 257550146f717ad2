/**
 * A categoryId anywhere in int64 is kept digit for digit over real HTTP and
 * real files: create, list, get, export, a fixture load through the control
 * plane and from a file with the CLI, the journal, and a restart of the file
 * store. Answers are compared as text: JSON.parse would round them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { controlOf } from '../support/control-client.js';
import { expectErrorNaming, postRaw } from '../support/error-check.js';
import { KEY, onMemory, onPostgres, startTestSandbox, tempDir, type TestSandbox } from '../support/harness.js';
import { killSandbox, runCli, spawnSandbox } from '../support/spawn.js';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

const running: TestSandbox[] = [];
afterAll(async () => {
  await Promise.all(running.map((sb) => sb.stop()));
});

async function start(dir: string): Promise<TestSandbox> {
  const sb = await startTestSandbox([], dir);
  running.push(sb);
  return sb;
}

async function stop(sb: TestSandbox): Promise<void> {
  running.splice(running.indexOf(sb), 1);
  await sb.stop({ keepData: true });
}

/** What a sandbox serves of its pets, as text: the list, each pet, the export. */
async function served(sb: TestSandbox, ids: number[]) {
  const ctl = controlOf(sb);
  return {
    list: (await sb.op('listPets', '/pets?limit=100')).text,
    pets: await Promise.all(ids.map(async (id) => (await sb.op('getPet', `/pets/${id}`)).text)),
    export: (await ctl('GET', '/export')).text,
  };
}

describe('categoryId at both ends of int64 in one process, on every store', () => {
  it('round-trips exactly through create, list, get, export and a load of the export', async () => {
    const sb = await start(tempDir('petstore-int64-'));
    const ctl = controlOf(sb);
    expect((await ctl('POST', '/reset', { json: { empty: true } })).status).toBe(200);
    const max = await sb.op('createPet', '/pets', postRaw(`{"name":"Max","categoryId":${MAX}}`));
    const min = await sb.op('createPet', '/pets', postRaw(`{"name":"Min","categoryId":${MIN},"status":"sold"}`));
    expect([max.text, min.text]).toEqual([`{"id":1,"name":"Max","categoryId":${MAX}}`, `{"id":2,"name":"Min","categoryId":${MIN},"status":"sold"}`]);
    const expected = { list: `[${max.text},${min.text}]`, pets: [max.text, min.text], export: `{"nextId":3,"pets":[${max.text},${min.text}]}` };
    expect(await served(sb, [1, 2])).toEqual(expected);
    expect((await ctl('POST', '/reset', { json: { empty: true } })).status).toBe(200);
    const loaded = await ctl('POST', '/load', { body: expected.export, headers: { 'content-type': 'application/json' } });
    expect(loaded.status, loaded.text).toBe(200);
    expect(await served(sb, [1, 2])).toEqual(expected);
    await stop(sb);
  });
});

// Restarts (which memory does not outlive), the CLI on the data files and the commit log are the file store's; on PostgreSQL the digits are checked by test/shared/backends-differential.test.ts.
describe.skipIf(onPostgres || onMemory)('categoryId 9223372036854775807 and -9223372036854775808', () => {
  it('round-trip exactly through create, list, get, export, load, the CLI and restarts of the file store', { timeout: 120_000 }, async () => {
    const dir = tempDir('petstore-int64-');
    let sb = await start(dir);
    const ctl = controlOf(sb);
    expect((await ctl('POST', '/reset', { json: { empty: true } })).status).toBe(200);

    const max = await sb.op('createPet', '/pets', postRaw(`{"name":"Max","categoryId":${MAX}}`));
    const min = await sb.op('createPet', '/pets', postRaw(`{"name":"Min","categoryId":${MIN},"status":"sold"}`));
    expect([max.status, min.status]).toEqual([201, 201]);
    expect(max.text).toBe(`{"id":1,"name":"Max","categoryId":${MAX}}`);
    expect(min.text).toBe(`{"id":2,"name":"Min","categoryId":${MIN},"status":"sold"}`);
    const expected = {
      list: `[${max.text},${min.text}]`,
      pets: [max.text, min.text],
      export: `{"nextId":3,"pets":[${max.text},${min.text}]}`,
    };
    expect(await served(sb, [1, 2])).toEqual(expected);
    expect((await sb.op('listPets', '/pets?status=sold')).text).toBe(`[${min.text}]`);

    // A restart reads them back from the snapshot the close folded the commit log into.
    await stop(sb);
    sb = await start(dir);
    expect(await served(sb, [1, 2])).toEqual(expected);

    // A load of the export puts back the same pets, byte for byte.
    const ctl2 = controlOf(sb);
    expect((await ctl2('POST', '/reset', { json: { empty: true } })).status).toBe(200);
    const loaded = await ctl2('POST', '/load', { body: expected.export, headers: { 'content-type': 'application/json' } });
    expect(loaded.status, loaded.text).toBe(200);
    expect(await served(sb, [1, 2])).toEqual(expected);

    // The same from a fixture file, with the CLI working on the data folder while no sandbox runs.
    await stop(sb);
    const file = join(dir, 'big.json');
    writeFileSync(file, `{"pets":[{"id":7,"name":"Max","categoryId":${MAX}},{"id":8,"name":"Min","categoryId":${MIN}}]}`);
    const load = await runCli(['load', file, '--data', join(dir, 'db.json')]);
    expect(load.stderr).toBe('');
    expect(load.code).toBe(0);
    const offline = await runCli(['export', '--data', join(dir, 'db.json')]);
    expect(offline.stdout.trim()).toBe(`{"nextId":9,"pets":[{"id":7,"name":"Max","categoryId":${MAX}},{"id":8,"name":"Min","categoryId":${MIN}}]}`);
    sb = await start(dir);
    expect((await served(sb, [7, 8])).export).toBe(offline.stdout.trim());
  });
});

// Restarts, the CLI on the data files and the commit log are the file store's; on PostgreSQL the digits are checked by test/shared/backends-differential.test.ts.
describe.skipIf(onPostgres || onMemory)('the commit log', () => {
  it('keeps the digits: creates acknowledged before a kill -9 are replayed from it on restart', { timeout: 120_000 }, async () => {
    const dir = tempDir('petstore-int64-');
    const child = await spawnSandbox(join(dir, 'db.json'));
    let created: string[];
    try {
      created = await Promise.all(
        [MAX, MIN].map(async (digits) => {
          const res = await fetch(`${child.baseUrl}/pets`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: `{"name":"Logged","categoryId":${digits}}`,
          });
          expect(res.status).toBe(201);
          return res.text();
        }),
      );
    } finally {
      await killSandbox(child);
    }
    const sb = await start(dir);
    for (const text of created) {
      const id = Number(/"id":(\d+)/.exec(text)?.[1]);
      expect((await sb.op('getPet', `/pets/${id}`)).text).toBe(text);
    }
    expect(created.map((text) => /"categoryId":(-?\d+)/.exec(text)?.[1]).sort()).toEqual([MIN, MAX]);
  });
});

describe('outside int64', () => {
  it.each([
    ['2^63', '9223372036854775808'],
    ['-(2^63) - 1', '-9223372036854775809'],
  ])('a categoryId of %s is a 400 Error naming it, on create and on load, and nothing is stored', { timeout: 60_000 }, async (_label, digits) => {
    const sb = await start(tempDir('petstore-int64-'));
    const ctl = controlOf(sb);
    const before = (await ctl('GET', '/export')).text;
    expectErrorNaming(await sb.op('createPet', '/pets', postRaw(`{"name":"Over","categoryId":${digits}}`)), 400, 'invalid_request', 'categoryId');
    const load = await ctl('POST', '/load', {
      body: `{"pets":[{"id":1,"name":"Over","categoryId":${digits}}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(load.status).toBe(400);
    expect(load.body).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(load.body.message).toContain("Record 0 field 'categoryId' must be an integer from -9223372036854775808 to 9223372036854775807");
    expect((await ctl('GET', '/export')).text).toBe(before);
  });
});
