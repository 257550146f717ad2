/**
 * The journal: what it records of each /v1 request, per workspace, how many
 * it keeps, how it cuts long bodies and shows bodies that are not JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry as Entry } from '../../src/store/journal/types.js';
import { startControlSandbox, type Control } from '../support/control-client.js';
import type { TestSandbox } from '../support/harness.js';

describe('journal contents', () => {
  let sb: TestSandbox;
  let ctl: Control;
  beforeAll(async () => ({ sb, ctl } = await startControlSandbox()));
  afterAll(() => sb.stop());

  const entries = async (key = 'key-a', query = ''): Promise<Entry[]> => (await ctl('GET', `/journal${query}`, { key })).body.entries as Entry[];

  it('records each /v1 request: time, method, path, query, operation, status, duration, bodies, spec validity', async () => {
    await ctl('DELETE', '/journal', { key: 'key-a' });
    const since = Date.now() - 1000;
    const list = await sb.op('listPets', '/pets?limit=2&status=sold', { key: 'key-a' });
    const created = await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'Rex', categoryId: 1 } });
    const invalid = await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { categoryId: 1 } });
    const missing = await sb.op('getPet', '/pets/999999', { key: 'key-a' });
    const got = await entries();
    expect(got.map((e) => [e.method, e.path, e.operationId, e.status])).toEqual([
      ['GET', '/v1/pets', 'listPets', 200],
      ['POST', '/v1/pets', 'createPet', 201],
      ['POST', '/v1/pets', 'createPet', 400],
      ['GET', '/v1/pets/999999', 'getPet', 404],
    ]);
    expect(got[0]?.query).toEqual({ limit: '2', status: 'sold' });
    expect(got[1]?.query).toEqual({});
    expect(got.map((e) => e.requestBody)).toEqual([null, { name: 'Rex', categoryId: 1 }, { categoryId: 1 }, null]);
    expect(got.map((e) => e.responseBody)).toEqual([list.body, created.body, invalid.body, missing.body]);
    for (const e of got) {
      expect(e.specValid).toBe(true);
      expect(e.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(e.time)).toBeGreaterThanOrEqual(since);
    }
  });

  it('marks specValid false, with the reason, for every exchange the interface does not allow', async () => {
    await ctl('DELETE', '/journal', { key: 'key-a' });
    await ctl('POST', '/faults', { key: 'key-a', json: { operationId: 'listPets', status: 503, count: 1 } });
    const outage = await sb.call('/pets', { key: 'key-a' });
    // A valid Error body, yet listPets documents no 503.
    expect(outage.body).toMatchObject({ code: 'service_unavailable', status: 503 });
    const badLimit = await sb.op('listPets', '/pets?limit=0', { key: 'key-a' });
    expect(badLimit.status).toBe(400);
    const tooLarge = await sb.call('/pets', {
      key: 'key-a',
      method: 'POST',
      body: JSON.stringify({ name: 'x'.repeat(200_000), categoryId: 1 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(tooLarge.status).toBe(413);
    expect((await sb.call('/nothing-here', { key: 'key-a' })).status).toBe(404);
    expect((await sb.call('/pets', { key: 'key-a', method: 'DELETE' })).status).toBe(405);
    expect((await sb.call('/store/orders', { key: 'key-a' })).status).toBe(501);
    const got = await entries();
    expect(got.map((e) => [e.method, e.operationId, e.status, e.specValid])).toEqual([
      ['GET', 'listPets', 503, false],
      ['GET', 'listPets', 400, true],
      ['POST', 'createPet', 413, false],
      // No operation matched: an Error body does not make the exchange one the interface allows.
      ['GET', null, 404, false],
      ['DELETE', null, 405, false],
      ['GET', null, 501, false],
    ]);
    expect(got.map((e) => e.specIssues?.map((i) => i.in))).toEqual([['status'], undefined, ['status'], ['operation'], ['operation'], ['operation']]);
    expect(got[0]?.specIssues?.[0]?.message).toBe('503 is not a documented status of listPets (200, 400, 401)');
    expect(got[2]?.specIssues?.[0]?.message).toMatch(/^413 is not a documented status of createPet /);
    expect(got[4]?.specIssues?.[0]?.message).toMatch(/matches the request; its 405 /);
  });

  it("records requests refused for their key in the unauthenticated journal, never a workspace's, and no control request", async () => {
    await ctl('DELETE', '/journal', { key: 'key-a' });
    await ctl('DELETE', '/journal/unauthenticated');
    await sb.op('listPets', '/pets?limit=1', { key: 'wrong-key' });
    await sb.op('listPets', '/pets?limit=2', { key: null });
    await sb.op('createPet', '/pets', { key: null, method: 'POST', json: { name: 'Rex', categoryId: 1 }, headers: { authorization: 'Basic eDp5' } });
    await ctl('GET', '/export');
    expect(await entries()).toEqual([]);
    const res = await ctl('GET', '/journal/unauthenticated');
    const got = res.body.entries as Entry[];
    expect(got.map((e) => [e.method, e.path, e.query, e.status, e.specValid])).toEqual([
      ['GET', '/v1/pets', { limit: '1' }, 401, true],
      ['GET', '/v1/pets', { limit: '2' }, 401, true],
      ['POST', '/v1/pets', {}, 401, true],
    ]);
    // What each presented, masked: the wrong key's first characters and length, never the key itself.
    expect(got.map((e) => e.credential)).toEqual(['Bearer wr…(9 characters)', 'none', 'Basic …']);
    expect(res.text).not.toContain('wrong-key');
    // Refused before its body was read: nothing of it is kept.
    expect(got[2]?.requestBody).toBeNull();
    expect(got[2]?.responseBody).toMatchObject({ code: 'unauthorized' });
    expect((await ctl('GET', '/journal/unauthenticated?limit=1')).body.entries).toHaveLength(1);
    expect((await ctl('GET', '/journal/unauthenticated?limit=x')).status).toBe(400);
    expect((await ctl('DELETE', '/journal/unauthenticated')).body).toEqual({ cleared: 3 });
    expect((await ctl('GET', '/journal/unauthenticated')).body.entries).toEqual([]);
  });

  it('shows a request body that is not JSON as its text, and says how much all journals hold', async () => {
    await ctl('DELETE', '/journal', { key: 'key-a' });
    const sent = ['{"name":"Rex",', '[1, 2', '{"name":"Rex"} trailing'];
    for (const body of sent)
      expect((await sb.call('/pets', { key: 'key-a', method: 'POST', body, headers: { 'content-type': 'application/json' } })).status).toBe(400);
    const res = await ctl('GET', '/journal', { key: 'key-a' });
    expect((res.body.entries as Entry[]).map((e) => e.requestBody)).toEqual(sent.map((text) => ({ truncated: false, size: text.length, text })));
    expect(res.body.memory).toMatchObject({ budget: 32 * 1024 * 1024, evicted: 0 });
    expect(res.body.memory.kept).toBeGreaterThanOrEqual(3);
    expect(res.body.memory.bytes).toBeGreaterThan(0);
  });

  it("keeps each workspace's requests apart", async () => {
    await ctl('DELETE', '/journal', { key: 'key-a' });
    await ctl('DELETE', '/journal', { key: 'key-b' });
    await sb.op('listPets', '/pets?limit=3', { key: 'key-b' });
    expect(await entries('key-a')).toEqual([]);
    expect((await entries('key-b')).map((e) => e.query)).toEqual([{ limit: '3' }]);
  });

  it('returns the newest `limit` entries, oldest first, and refuses a bad limit', async () => {
    await ctl('DELETE', '/journal', { key: 'key-a' });
    for (const n of [1, 2, 3, 4]) await sb.op('listPets', `/pets?limit=${n}`, { key: 'key-a' });
    expect((await entries('key-a', '?limit=2')).map((e) => e.query.limit)).toEqual(['3', '4']);
    expect(await entries('key-a', '?limit=0')).toEqual([]);
    for (const bad of ['-1', 'two', '1.5', '', '2&limit=3']) expect((await ctl('GET', `/journal?limit=${bad}`, { key: 'key-a' })).status).toBe(400);
  });

  it("clears a workspace's journal and says how many entries went", async () => {
    const before = (await entries()).length;
    expect((await ctl('DELETE', '/journal', { key: 'key-a' })).body).toMatchObject({ cleared: before });
    expect(await entries()).toEqual([]);
    expect((await ctl('DELETE', '/journal', { key: 'key-a' })).body).toMatchObject({ cleared: 0 });
  });
});

describe('journal bounds', () => {
  let sb: TestSandbox;
  let ctl: Control;
  beforeAll(async () => ({ sb, ctl } = await startControlSandbox(['--journal-size', '5'])));
  afterAll(() => sb.stop());

  it('--journal-size 5 keeps the last 5 requests', async () => {
    for (let n = 1; n <= 8; n++) await sb.op('listPets', `/pets?limit=${n}`);
    const res = await ctl('GET', '/journal?limit=100');
    expect(res.body.size).toBe(5);
    expect((res.body.entries as Entry[]).map((e) => e.query.limit)).toEqual(['4', '5', '6', '7', '8']);
  });

  it('keeps bodies up to 4096 characters whole and truncates longer ones', async () => {
    await ctl('DELETE', '/journal');
    const short = await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'r'.repeat(4000), categoryId: 1 } });
    const longPet = { name: 'x'.repeat(5000), categoryId: 1 };
    const long = await sb.op('createPet', '/pets', { method: 'POST', json: longPet });
    const [kept, cut] = (await ctl('GET', '/journal')).body.entries as Entry[];
    expect(kept?.requestBody).toEqual({ name: 'r'.repeat(4000), categoryId: 1 });
    expect(kept?.responseBody).toEqual(short.body);
    const longText = JSON.stringify(longPet);
    expect(cut?.requestBody).toEqual({ truncated: true, size: longText.length, text: longText.slice(0, 4096) });
    expect(cut?.responseBody).toEqual({ truncated: true, size: long.text.length, text: long.text.slice(0, 4096) });
    expect(cut?.specValid).toBe(true);
  });

  it('shows each read of a long page as the page it was answered, read again or changed', async () => {
    await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'p'.repeat(5000), categoryId: 2 } });
    await ctl('DELETE', '/journal');
    const pages = [];
    pages.push(await sb.op('listPets', '/pets?limit=100'));
    pages.push(await sb.op('listPets', '/pets?limit=100'));
    await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'Late', categoryId: 2 } });
    pages.push(await sb.op('listPets', '/pets?limit=100'));
    const got = ((await ctl('GET', '/journal')).body.entries as Entry[]).filter((e) => e.operationId === 'listPets');
    expect(pages[2]?.text.length).toBeGreaterThan(pages[0]?.text.length ?? 0);
    expect(got.map((e) => [e.responseBody, e.specValid])).toEqual(
      pages.map((p) => [{ truncated: true, size: p.text.length, text: p.text.slice(0, 4096) }, true]),
    );
  });

  it('truncates a long chunked body too (it declares no Content-Length)', async () => {
    await ctl('DELETE', '/journal');
    const longPet = { name: 'c'.repeat(6000), categoryId: 1 };
    const text = JSON.stringify(longPet);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, 3000)));
        controller.enqueue(new TextEncoder().encode(text.slice(3000)));
        controller.close();
      },
    });
    const res = await fetch(`${sb.baseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    const [entry] = (await ctl('GET', '/journal')).body.entries as Entry[];
    expect(entry?.requestBody).toEqual({ truncated: true, size: text.length, text: text.slice(0, 4096) });
  });
});
