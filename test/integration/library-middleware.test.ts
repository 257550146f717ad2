/**
 * The middleware inside a plain Express app of a team's own: mounted under
 * /api, it answers /api/v1 and /api/__sandbox as the interface and the
 * control plane say, and leaves every other request, with its body, to the
 * app's own routes.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { petstoreSandbox, type SandboxMiddleware } from '../../src/middleware.js';
import { expectSpecValid } from '../support/spec-check.js';

const AUTH = { authorization: 'Bearer sandbox-key' };

describe('petstoreSandbox() in an Express app', () => {
  let server: Server;
  let origin: string;
  let sandbox: SandboxMiddleware;
  beforeAll(async () => {
    const app = express();
    sandbox = petstoreSandbox({ count: 5 });
    app.get('/hello', (_req, res) => void res.json({ hello: 'app' }));
    app.use('/api', sandbox);
    app.post('/echo', express.json(), (req, res) => void res.json({ got: req.body as unknown }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await sandbox.close();
  });

  it('serves the interface under its mount path', async () => {
    const res = await fetch(`${origin}/api/v1/pets`, { headers: AUTH });
    const body = (await res.json()) as unknown[];
    await expectSpecValid('listPets', { status: res.status, headers: res.headers, body });
    expect(body).toHaveLength(5);
    const created = await fetch(`${origin}/api/v1/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"Mounted","categoryId":1}',
    });
    const pet = (await created.json()) as { id: number };
    await expectSpecValid('createPet', { status: created.status, headers: created.headers, body: pet });
    expect(created.status).toBe(201);
    const again = await fetch(`${origin}/api/v1/pets/${pet.id}`, { headers: AUTH });
    expect(await again.json()).toEqual(pet);
    const refused = await fetch(`${origin}/api/v1/pets`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('refuses a body over the limit as the server does: CORS, request id, journaled', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(120_000), categoryId: 1 });
    const res = await fetch(`${origin}/api/v1/pets`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const { entries } = await (await sandbox.sandbox).workspace().journal.read();
    expect(entries.at(-1)).toMatchObject({ method: 'POST', status: 413 });
  });

  it('serves the control plane and its workspaces in code', async () => {
    const mode = await fetch(`${origin}/api/__sandbox/mode`, { headers: { authorization: 'Bearer sandbox-admin' } });
    expect(await mode.json()).toMatchObject({ mode: 'stateful' });
    await (await sandbox.sandbox).workspace().reset({ count: 2 });
    expect(((await (await fetch(`${origin}/api/v1/pets`, { headers: AUTH })).json()) as unknown[]).length).toBe(2);
  });

  it("leaves the app's own routes, and their bodies, to the app", async () => {
    expect(await (await fetch(`${origin}/hello`)).json()).toEqual({ hello: 'app' });
    const echo = await fetch(`${origin}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await echo.json()).toEqual({ got: { a: 1 } });
    // Under the mount path but not the sandbox's: the app's (Express's own 404 page here).
    expect((await fetch(`${origin}/api/other`)).status).toBe(404);
  });
});

describe('petstoreSandbox() that cannot start', () => {
  it("hands each of its requests to the app's error handler with the cause", async () => {
    const app = express();
    const broken = petstoreSandbox({ count: -1 });
    app.use(broken);
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).json({ caught: error.message }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`, { headers: AUTH });
      expect(((await res.json()) as { caught: string }).caught).toMatch(/^count must be between/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    await expect(broken.sandbox).rejects.toThrow(/^count must be between/);
  });
});
