/**
 * The same sandbox on every backend (issue 12, item 3): the same requests
 * to a file-backed, a memory-backed and a PostgreSQL-backed sandbox get the
 * same answers, byte for byte: ids, order, filters, errors, the deprecation
 * headers, fixture loads and exports. The ids each store gives after the
 * same creates, loads, appends and resets are compared too: every store
 * follows one id rule (src/store/rules.ts), and one that counted another way
 * would answer otherwise here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/server/sandbox.js';
import { MAX_ID } from '../../src/store/rules.js';
import { KEY, testConfig } from '../support/harness.js';
import { freshStore, postgresForFile } from '../support/shared-sandboxes.js';

let server: Awaited<ReturnType<typeof postgresForFile>>;
let file: Sandbox;
let memory: Sandbox;
let postgres: Sandbox;

/** Small enough that one large pet brings a workspace to a few bytes under it. */
const QUOTA_BYTES = 20_000;

beforeAll(async () => {
  server = await postgresForFile();
  const args = ['--count', '30', '--quota-bytes', String(QUOTA_BYTES)];
  file = await startSandbox(testConfig(args));
  memory = await startSandbox(testConfig([...args, '--store', 'memory']));
  postgres = await startSandbox(testConfig([...args, '--store', await freshStore(server.port)]));
}, 180_000);
afterAll(async () => {
  await Promise.all([file?.close(), memory?.close(), postgres?.close()]);
  await server?.stop();
});

const ADMIN = { authorization: 'Bearer sandbox-admin', 'x-sandbox-key': KEY, 'content-type': 'application/json' };
const SHOWN_HEADERS = ['content-type', 'deprecation', 'sunset', 'link', 'www-authenticate', 'allow'];

/** One request to a sandbox: its status, the headers that matter and its body text. */
async function ask(sb: Sandbox, method: string, path: string, body?: unknown, admin = false): Promise<string> {
  const headers: Record<string, string> = admin ? ADMIN : { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const res = await fetch(`${sb.origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const shown = SHOWN_HEADERS.map((h) => `${h}: ${res.headers.get(h) ?? ''}`).join('\n');
  // Workspace ids are keyed with each store's own secret: the one thing that differs by design.
  const text = (await res.text()).replace(/"workspace":"[0-9a-f]{16}"/g, '"workspace":"<id>"');
  return `${res.status}\n${shown}\n${text}`;
}

/** The same request to each; the answers must be the same text. */
async function same(method: string, path: string, body?: unknown, admin = false): Promise<string> {
  const a = await ask(file, method, path, body, admin);
  expect({ memory: await ask(memory, method, path, body, admin), postgres: await ask(postgres, method, path, body, admin) }).toEqual({
    memory: a,
    postgres: a,
  });
  return a;
}

describe('a file-backed, a memory-backed and a PostgreSQL-backed sandbox answer alike', () => {
  it('keeps a categoryId at both ends of int64 digit for digit: create, list, get, export and load', async () => {
    await same('POST', '/__sandbox/reset', { count: 0 }, true);
    // Sent as text: a JavaScript number cannot hold these values.
    const max = await same('POST', '/v1/pets', '{"name":"Max","categoryId":9223372036854775807}');
    const min = await same('POST', '/v1/pets', '{"name":"Min","categoryId":-9223372036854775808}');
    expect(max).toContain('"categoryId":9223372036854775807');
    expect(min).toContain('"categoryId":-9223372036854775808');
    for (const path of ['/v1/pets', '/v1/pets/1', '/v1/pets/2']) await same('GET', path);
    const exported = (await same('GET', '/__sandbox/export', undefined, true)).split('\n').at(-1) as string;
    expect(exported).toContain('9223372036854775807');
    await same('POST', '/__sandbox/load', exported, true);
    const listed = await same('GET', '/v1/pets');
    expect(listed).toContain('"categoryId":9223372036854775807');
    expect(listed).toContain('"categoryId":-9223372036854775808');
  });

  it('seeded lists, filters, gets, 404s and errors', async () => {
    for (const path of [
      '/v1/pets',
      '/v1/pets?limit=100',
      '/v1/pets?status=sold',
      '/v1/pets?status=pending&limit=3',
      '/v1/pets/7',
      '/v1/pets/9999',
      '/v1/pets/abc',
    ]) {
      await same('GET', path);
    }
    await same('GET', '/v1/pets?limit=0');
    await same('POST', '/v1/pets', { name: 'No category' });
  });

  it('creates: the same ids, the same JSON, then the same lists and export', async () => {
    for (const body of [
      { name: 'Ünïcødé 🐈', categoryId: 3, status: 'available' },
      { name: 'No status', categoryId: 9007199254740991 },
      { name: 'Sold', categoryId: 1, status: 'sold' },
    ]) {
      expect(await same('POST', '/v1/pets', body)).toMatch(/^201/);
    }
    await same('GET', '/v1/pets?limit=100');
    await same('GET', '/v1/pets?status=sold&limit=100');
    await same('GET', '/__sandbox/export', undefined, true);
  });

  it('fixture loads (replace and append), clashes, resets and exports', async () => {
    await same('POST', '/__sandbox/load', { fixture: 'every-status' }, true);
    await same('GET', '/v1/pets?limit=100');
    await same('POST', '/__sandbox/load', { pets: [{ id: 1, name: 'Clash', categoryId: 1 }], mode: 'append' }, true);
    await same('POST', '/__sandbox/load', { pets: [{ id: 500, name: 'Far', categoryId: 2 }], mode: 'append' }, true);
    await same('POST', '/v1/pets', { name: 'After load', categoryId: 2 });
    await same('GET', '/__sandbox/export', undefined, true);
    await same('POST', '/__sandbox/reset', { empty: true }, true);
    await same('POST', '/v1/pets', { name: 'First again', categoryId: 2 });
    await same('POST', '/__sandbox/reset', {}, true);
    await same('GET', '/__sandbox/export', undefined, true);
  });
});

describe('ids: every store gives the same ones after the same creates, loads, appends and resets', () => {
  const pet = (id: number, name = `P${id}`) => ({ id, name, categoryId: 1 });
  const create = () => same('POST', '/v1/pets', { name: 'A', categoryId: 1 });
  const load = (set: unknown) => same('POST', '/__sandbox/load', set, true);
  const exported = () => same('GET', '/__sandbox/export', undefined, true);

  /**
   * `n` of the same create sent at once to each sandbox in turn; their
   * answers, sorted (which request gets which id is the order of arrival),
   * the same everywhere. Their statuses.
   */
  async function burst(n: number): Promise<string[]> {
    const answers = async (sb: Sandbox) =>
      (await Promise.all(Array.from({ length: n }, () => ask(sb, 'POST', '/v1/pets', { name: 'A', categoryId: 1 })))).sort();
    const a = await answers(file);
    expect({ memory: await answers(memory), postgres: await answers(postgres) }).toEqual({ memory: a, postgres: a });
    return a.map((answer) => answer.split('\n')[0] as string);
  }

  it('creates count up from the next id; a load or reset sets it past the highest id and at least the one asked; an append keeps the one held', async () => {
    await same('POST', '/__sandbox/reset', { empty: true }, true);
    expect(await create()).toMatch(/^201[^]*\{"id":1,/);
    expect(await create()).toMatch(/\{"id":2,/);
    await load({ pets: [pet(5), pet(3)] });
    expect(await create()).toMatch(/\{"id":6,/);
    await load({ pets: [pet(2)], nextId: 40 });
    expect(await create()).toMatch(/\{"id":40,/);
    await load({ pets: [pet(50)], nextId: 10 });
    expect(await create()).toMatch(/\{"id":51,/);
    await load({ pets: [pet(70)], nextId: 60, mode: 'append' });
    expect(await create()).toMatch(/\{"id":71,/);
    await load({ pets: [pet(80)], nextId: 200, mode: 'append' });
    await load({ pets: [pet(90)], mode: 'append' });
    expect(await create()).toMatch(/\{"id":200,/);
    await load({ pets: [pet(95)], nextId: 150, mode: 'append' });
    expect(await create()).toMatch(/\{"id":201,/);
    expect(await exported()).toContain('{"nextId":202,');
    await same('POST', '/__sandbox/reset', { count: 5 }, true);
    expect(await create()).toMatch(/\{"id":6,/);
    expect(await burst(20)).toEqual(Array(20).fill('201'));
    expect(await exported()).toContain('{"nextId":27,');
  });

  it('no id past MAX_ID: the last is given once, then creates are refused, one at a time or several at once', async () => {
    await load({ pets: [], nextId: MAX_ID });
    expect(await create()).toMatch(new RegExp(`^201[^]*\\{"id":${MAX_ID},`));
    expect(await create()).toMatch(/^400[^]*No ids left/);
    await load({ pets: [pet(1)], nextId: MAX_ID - 1 });
    expect(await burst(3)).toEqual(['201', '201', '400']);
    await exported();
  });

  it("an id's digits count against the byte quota: the create whose id gains a digit is the one refused", async () => {
    // Each create of {"name":"A","categoryId":1} holds 35 bytes with a two-digit id, 36 with id 100: room for three of 35, not for the third at 36.
    const big = pet(1, 'x'.repeat(QUOTA_BYTES - 105 - '{"id":1,"name":"","categoryId":1}'.length));
    await load({ pets: [big], nextId: 98 });
    expect(await create()).toMatch(/^201[^]*\{"id":98,/);
    expect(await create()).toMatch(/^201[^]*\{"id":99,/);
    expect(await create()).toMatch(/^507[^]*quota of 20000 bytes/);
    await load({ pets: [big], nextId: 98 });
    expect(await burst(3)).toEqual(['201', '201', '507']);
    expect(await exported()).toContain('{"nextId":100,');
  });
});
