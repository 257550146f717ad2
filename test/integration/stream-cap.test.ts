/**
 * One cap on live journal tails, on every way in: the server holds each on
 * a connection of its own and lets one client address hold 256
 * (`--max-connections-per-client`); the Connect middleware in a team's
 * server counts them by peer address, and the in-process ways (the
 * library's `fetch`, its fetch handler) count the process as one client.
 * One over the cap is refused as the server refuses a connection over its
 * cap, 503 `service_unavailable`; a tail that ends gives its slot back.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { petstoreSandbox, type SandboxMiddleware } from '../../src/middleware.js';
import { httpGet, STREAM, within, type Opened } from '../support/ways-in.js';

const ADMIN = { authorization: 'Bearer sandbox-admin' };
const CAP = 256;
const REFUSED = { code: 'service_unavailable', status: 503, message: expect.stringMatching(/^Too many journal streams from /) };

/** How many of `opened` answered 200, and the bodies of the others. */
async function tally(opened: Opened[]): Promise<{ accepted: number; refusals: unknown[] }> {
  const refused = opened.filter((o) => o.status !== 200);
  return { accepted: opened.length - refused.length, refusals: await Promise.all(refused.map(async (o) => JSON.parse(await o.ended) as unknown)) };
}

let middleware: SandboxMiddleware | undefined;
let server: Server | undefined;
let sandbox: PetstoreSandbox | undefined;
afterEach(async () => {
  await middleware?.close();
  await sandbox?.close();
  if (server) await new Promise((resolve) => server?.close(resolve));
  middleware = sandbox = server = undefined;
});

describe('the journal stream cap', () => {
  it('through the middleware: 300 tails from one address, the 44 over 256 refused 503; a slot given back is taken again', { timeout: 60_000 }, async () => {
    middleware = petstoreSandbox();
    const app = express();
    app.use(middleware);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server?.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${STREAM}`;
    const opened = await Promise.all(Array.from({ length: 300 }, () => httpGet(url, ADMIN)));
    const { accepted, refusals } = await tally(opened);
    expect(accepted).toBe(CAP);
    expect(refusals).toHaveLength(300 - CAP);
    for (const body of refusals) expect(body).toEqual(REFUSED);
    // One tail leaves: its slot is free once its end is seen (the server sees the connection close).
    const left = opened.find((o) => o.status === 200) as Opened;
    left.leave?.();
    let again = await httpGet(url, ADMIN);
    for (let tries = 0; again.status !== 200 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await httpGet(url, ADMIN);
    }
    expect(again.status).toBe(200);
    // Closing the sandbox ends every tail it holds.
    await middleware.close();
    const open = [again, ...opened].filter((o) => o.status === 200 && o !== left);
    await within(Promise.all(open.map((o) => o.ended)), 10_000, 'the tails');
  });

  it('in process: sandbox.fetch and the fetch handler are one client, capped at 256', { timeout: 60_000 }, async () => {
    sandbox = await createSandbox();
    const inProcess = sandbox;
    const opened = await Promise.all(Array.from({ length: CAP }, () => inProcess.fetch(STREAM, { headers: ADMIN })));
    expect(opened.every((res) => res.status === 200)).toBe(true);
    const over = await inProcess.fetch(STREAM, { headers: ADMIN });
    expect(over.status).toBe(503);
    expect(await over.json()).toEqual({ ...REFUSED, message: expect.stringMatching(/^Too many journal streams from this process/) });
    const byHandler = await inProcess.handler(new Request(`http://app.test${STREAM}`, { headers: ADMIN }));
    expect(byHandler.status).toBe(503);
    // HEAD opens no stream, and takes no slot.
    expect((await inProcess.fetch(STREAM, { method: 'HEAD', headers: ADMIN })).status).toBe(200);
    // A reader that cancels gives its slot back at once.
    await opened[0]?.body?.cancel();
    const again = await inProcess.fetch(STREAM, { headers: ADMIN });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});
