/**
 * Idle connections cannot take the sandbox down, under a lowered descriptor
 * limit (`prlimit --nofile=256:256`): connections past `--max-connections`
 * are closed as they arrive, the default cap is lowered on its own to fit the
 * limit (and the banner says so), and once the idle sockets are gone a
 * request is served as usual; the sandbox never crashes and SIGTERM stops it
 * with exit code 0. The idle connections come from several loopback
 * addresses, each under its own --max-connections-per-client, and each has
 * begun its request head: a connection that sends nothing is closed after a
 * short deadline, one that has begun its head only after the head's.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY, tempDir } from '../support/harness.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const FILE_LIMIT = 256;
const LIMITED = { wrapper: ['prlimit', `--nofile=${FILE_LIMIT}:${FILE_LIMIT}`, '--'] };
const ADMIN = { authorization: 'Bearer sandbox-admin', 'content-type': 'application/json' };

const dir = tempDir('petstore-conn-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Idle {
  socket: Socket;
  closed: boolean;
}

/** Opens `count` connections from each of `from` that send the start of a head and no more; each is marked once the server closes it. */
async function openIdle(port: number, count: number, from: string[]): Promise<Idle[]> {
  return Promise.all(
    Array.from({ length: count * from.length }, (_, i) => {
      const idle: Idle = { socket: connect({ port, host: '127.0.0.1', localAddress: from[i % from.length] }), closed: false };
      idle.socket.on('error', () => undefined);
      idle.socket.once('close', () => (idle.closed = true));
      return new Promise<Idle>((resolve) => {
        idle.socket.once('connect', () => {
          idle.socket.write('GET /v1/pets HTTP/1.1\r\n');
          resolve(idle);
        });
        idle.socket.once('close', () => resolve(idle));
      });
    }),
  );
}

/** Waits until `done()` holds, or gives up after a generous bound, so that the assertion after it tells what went wrong. */
async function until(done: () => boolean, boundMs = 30_000): Promise<void> {
  for (let waited = 0; !done() && waited < boundMs; waited += 50) await sleep(50);
}

/** A GET on a new connection: its status, or the error if the connection was refused or dropped. */
function probe(origin: string, path: string): Promise<number | Error> {
  return new Promise((resolve) => {
    const req = request(`${origin}${path}`, { agent: false, headers: { authorization: `Bearer ${KEY}` } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', resolve);
    req.end();
  });
}

/** Retries a request until the server has noticed the closed sockets (bounded by the test's timeout). */
async function servedOnceFree(origin: string): Promise<number> {
  for (;;) {
    const status = await probe(origin, '/v1/pets?limit=1');
    if (typeof status === 'number') return status;
    await sleep(100);
  }
}

describe(`idle connections under a limit of ${FILE_LIMIT} open files`, () => {
  it('past --max-connections 50, connections are closed as they arrive; once the idle ones go, requests are served', { timeout: 120_000 }, async () => {
    let sb: ChildSandbox | undefined;
    try {
      sb = await spawnSandbox(join(dir, 'capped.json'), ['--max-connections', '50'], LIMITED);
      expect(sb.output()).toMatch(/at most 25 connections per client, not 256/);
      const idle = await openIdle(Number(new URL(sb.origin).port), 60, ['127.0.0.2', '127.0.0.3']);
      await until(() => idle.filter((i) => i.closed).length >= 70);
      expect(idle.filter((i) => !i.closed).length).toBe(50);
      // At the cap, a new client is turned away too: the cap is real.
      expect(await probe(sb.origin, '/v1/pets?limit=1')).toBeInstanceOf(Error);

      for (const i of idle) i.socket.destroy();
      expect(await servedOnceFree(sb.origin)).toBe(200);
      expect(sb.child.exitCode).toBeNull();
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      expect(sb.stderr()).toBe('');
    } finally {
      await killSandbox(sb);
    }
  });

  it(
    'lowers the default cap to fit the limit and says so; with the cap full of idle sockets, a write on an open connection still succeeds',
    { timeout: 120_000 },
    async () => {
      let sb: ChildSandbox | undefined;
      try {
        sb = await spawnSandbox(join(dir, 'default.json'), [], LIMITED);
        const notice = /at most (\d+) connections, not 1000: the open-file limit is 256/;
        await until(() => notice.test(sb?.output() ?? ''));
        expect(sb.output()).toMatch(notice);
        const cap = Number(notice.exec(sb.output())?.[1]);
        expect(cap).toBeGreaterThan(50);
        expect(cap).toBeLessThan(FILE_LIMIT);
        const { port } = new URL(sb.origin);
        // A reset on a connection opened first: its head is in, its body comes once the idle sockets are all there.
        const body = JSON.stringify({ count: 3 });
        const writer = connect(Number(port), '127.0.0.1');
        let answer = '';
        writer.on('data', (chunk: Buffer) => void (answer += chunk.toString()));
        writer.write(
          `POST /__sandbox/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${ADMIN.authorization}\r\nContent-Type: ${ADMIN['content-type']}\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        await new Promise((resolve) => writer.once('connect', resolve));

        const idle = await openIdle(Number(port), FILE_LIMIT / 2, ['127.0.0.2', '127.0.0.3', '127.0.0.4']);
        await until(() => idle.filter((i) => i.closed).length >= idle.length - cap + 1);
        expect(idle.filter((i) => !i.closed).length).toBe(cap - 1);
        writer.write(body);
        await until(() => answer.includes('\r\n\r\n{'));
        expect(answer).toMatch(/^HTTP\/1\.1 200 /);

        for (const i of idle) i.socket.destroy();
        writer.destroy();
        expect(await servedOnceFree(sb.origin)).toBe(200);
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      } finally {
        await killSandbox(sb);
      }
    },
  );
});
