// The dev server as `npm run dev` starts it, started here by Vite's API on a free port at 127.0.0.1:
// the page and its script come from Vite, /api/v1 from the sandbox, and the server is stopped after.
import { createServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';

const headers = { authorization: 'Bearer sandbox-key' };
let server;
let origin;

beforeAll(async () => {
  server = await createServer({
    configFile: new URL('./vite.config.js', import.meta.url).pathname,
    server: { port: 0, host: '127.0.0.1' },
    logLevel: 'silent',
  });
  await server.listen();
  origin = `http://127.0.0.1:${server.httpServer.address().port}`;
});

afterAll(async () => {
  await server?.close();
});

test('the page and its script come from Vite', async () => {
  const page = await fetch(`${origin}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await page.text()).toContain('<ul id="pets">');
  const script = await fetch(`${origin}/main.js`);
  expect(script.status).toBe(200);
  expect(await script.text()).toContain('/api/v1');
});

test('/api/v1/pets is the sandbox: seeded pets, a created pet listed, a bad request refused with an Error body', async () => {
  const seeded = await (await fetch(`${origin}/api/v1/pets`, { headers })).json();
  expect(seeded).toHaveLength(5);
  const created = await fetch(`${origin}/api/v1/pets`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Vite', categoryId: 1 }),
  });
  expect(created.status).toBe(201);
  const listed = await (await fetch(`${origin}/api/v1/pets?limit=100`, { headers })).json();
  expect(listed.map((pet) => pet.name)).toContain('Vite');
  const refused = await fetch(`${origin}/api/v1/pets?limit=0`, { headers });
  expect(refused.status).toBe(400);
  expect(Object.keys(await refused.json()).sort()).toEqual(['code', 'message', 'status']);
});

test('the page can read its journal through the control plane', async () => {
  const journal = await fetch(`${origin}/api/__sandbox/journal`, { headers: { authorization: 'Bearer sandbox-admin' } });
  expect(journal.status).toBe(200);
  const { entries } = await journal.json();
  expect(entries.map((entry) => entry.operationId)).toContain('createPet');
});
