/**
 * The same sandbox on both backends (issue 12, item 3): the same requests
 * to a file-backed and a PostgreSQL-backed sandbox get the same answers,
 * byte for byte: ids, order, filters, errors, the deprecation headers,
 * fixture loads and exports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/server/sandbox.js';
import { KEY, testConfig } from '../support/harness.js';
import { freshStore, postgresForFile } from '../support/shared-sandboxes.js';

let server: Awaited<ReturnType<typeof postgresForFile>>;
let file: Sandbox;
let postgres: Sandbox;

beforeAll(async () => {
  server = await postgresForFile();
  file = await startSandbox(testConfig(['--count', '30']));
  postgres = await startSandbox(testConfig(['--count', '30', '--store', await freshStore(server.port)]));
}, 180_000);
afterAll(async () => {
  await Promise.all([file?.close(), postgres?.close()]);
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

/** The same request to both; the answers must be the same text. */
async function same(method: string, path: string, body?: unknown, admin = false): Promise<string> {
  const [a, b] = [await ask(file, method, path, body, admin), await ask(postgres, method, path, body, admin)];
  expect(b).toBe(a);
  return a;
}

describe('a file-backed and a PostgreSQL-backed sandbox answer alike', () => {
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
