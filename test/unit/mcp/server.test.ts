/**
 * The MCP server against sandboxes that misbehave, in process: one that
 * accepts connections and never answers (the call is given up after the
 * server's timeout, as a tool error naming the sandbox), one whose answers
 * hold the admin token where a key, a number or a tag name also spells it
 * (only text values are scrubbed), and arguments no request can carry
 * (tool errors that do not repeat the value).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mcpTimeoutMs, mcpUsageProblem } from '../../../src/cli/mcp-usage.js';
import { firstText, inProcessMcp, type InProcessMcp } from '../../support/mcp-in-process.js';

const sessions: InProcessMcp[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

const open = async (...args: Parameters<typeof inProcessMcp>) => {
  const session = await inProcessMcp(...args);
  sessions.push(session);
  return session;
};

/** Listens on 127.0.0.1, port 0; its origin, and a stop that also ends the connections it holds. */
async function listen(server: Server | HttpServer, sockets: Set<Socket>): Promise<{ origin: string; stop: () => Promise<void> }> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('a sandbox that accepts connections and never answers', () => {
  const sockets = new Set<Socket>();
  // Takes each connection and says nothing on it, as a hung process would.
  const silent = createServer(() => undefined);
  const listening = listen(silent, sockets);
  afterAll(async () => (await listening).stop());

  it('a tool call is given up after the timeout: a tool error naming the sandbox, and the next call is served the same way', async () => {
    const { origin } = await listening;
    const mcp = await open({ origin, adminToken: 'token-1', timeoutMs: 300 });
    for (const name of ['list_faults', 'reset']) {
      const result = await mcp.call(name);
      expect(result.isError, name).toBe(true);
      expect(firstText(result)).toBe(`The sandbox at ${origin} did not answer within 0.3 s (mcp --timeout); the call was given up.`);
    }
    expect(sockets.size, 'the calls reached the silent server').toBeGreaterThan(0);
    await expect(mcp.client.readResource({ uri: `${origin}/docs/openapi.json` })).rejects.toThrow(`The sandbox at ${origin} did not answer within 0.3 s`);
  }, 20_000);

  it('an answer whose body stops after its head is given up the same way', async () => {
    const held = new Set<Socket>();
    const stalling = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"workspace":');
    });
    const { origin, stop } = await listen(stalling, held);
    try {
      const mcp = await open({ origin, adminToken: 'token-1', timeoutMs: 300 });
      const result = await mcp.call('list_faults');
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain(`The sandbox at ${origin} did not answer within 0.3 s`);
    } finally {
      await stop();
    }
  }, 20_000);

  it('--timeout: seconds above 0 and at most an hour, else a usage error', () => {
    const url = 'http://127.0.0.1:4010';
    expect([mcpTimeoutMs('2.5'), mcpTimeoutMs('10'), mcpTimeoutMs(undefined)]).toEqual([2500, 10_000, undefined]);
    expect(mcpUsageProblem([], { url, timeout: '0.5' })).toBeUndefined();
    for (const bad of ['0', '-1', 'ten', '3601', '1e3', true])
      expect(mcpUsageProblem([], { url, timeout: bad }), String(bad)).toMatch(/^--timeout must be a number of seconds above 0/);
  });
});

describe('the admin token, scrubbed by structure', () => {
  /** What the fake sandbox answers, by path: a JSON body (status 200 unless it says otherwise), or text with its type. */
  let answers: Record<string, { status?: number; type?: string; body: string }> = {};
  const sockets = new Set<Socket>();
  let requests = 0;
  const fake = createHttpServer((req, res) => {
    requests += 1;
    const answer = answers[new URL(req.url ?? '/', 'http://x').pathname] ?? { status: 404, body: '{"code":"not_found","message":"no","status":404}' };
    res.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'application/json' }).end(answer.body);
  });
  const listening = listen(fake, sockets);
  afterAll(async () => (await listening).stop());

  it('a token `status`: keys and numbers stay, text values lose it, integers keep their digits', async () => {
    const { origin } = await listening;
    answers = {
      '/__sandbox/faults': { status: 403, body: '{"code":"forbidden","message":"Bearer status is not the admin token.","status":403}' },
      '/__sandbox/journal': { body: '{"workspace":"status","entries":[{"status":200,"path":"/v1/pets?status=sold","id":9007199254740993}]}' },
    };
    const mcp = await open({ origin, adminToken: 'status' });
    const refused = await mcp.call('list_faults');
    const body = { code: 'forbidden', message: 'Bearer [admin token] is not the admin token.', status: 403 };
    expect(refused).toMatchObject({ isError: true, structuredContent: body });
    expect(JSON.parse(firstText(refused))).toEqual(body);

    const journal = await mcp.call('read_journal');
    expect(journal.isError).toBeFalsy();
    expect(firstText(journal)).toBe('{"workspace":"[admin token]","entries":[{"status":200,"path":"/v1/pets?[admin token]=sold","id":9007199254740993}]}');
    expect(journal.structuredContent).toMatchObject({ workspace: '[admin token]', entries: [{ status: 200 }] });
  });

  it('a token that is a common key (`name`), or a number (`403`): the shape of every answer stays', async () => {
    const { origin } = await listening;
    answers = {
      '/__sandbox/faults': { body: '{"workspace":"a1","faults":[{"id":1,"name":"name","status":403,"message":"403 for name"}]}' },
      '/__sandbox/coverage': { type: 'application/xml', body: '<testsuite name="name 403"><testcase name="x">name 403</testcase></testsuite>' },
    };
    const byName = await open({ origin, adminToken: 'name' });
    expect(JSON.parse(firstText(await byName.call('list_faults')))).toEqual({
      workspace: 'a1',
      faults: [{ id: 1, name: '[admin token]', status: 403, message: '403 for [admin token]' }],
    });
    // XML: a tag's or an attribute's name is not a value.
    expect(firstText(await byName.call('coverage', { format: 'junit' }))).toBe(
      '<testsuite name="[admin token] 403"><testcase name="x">[admin token] 403</testcase></testsuite>',
    );
    const byNumber = await open({ origin, adminToken: '403' });
    const faults = JSON.parse(firstText(await byNumber.call('list_faults'))) as { faults: Record<string, unknown>[] };
    expect(faults.faults[0]).toEqual({ id: 1, name: 'name', status: 403, message: '[admin token] for name' });
  });

  it('tool errors for arguments no request can carry, that never repeat the value', async () => {
    const { origin } = await listening;
    answers = { '/__sandbox/faults': { body: '{"workspace":"a1","faults":[]}' } };
    const mcp = await open({ origin, adminToken: 'token-1' });
    const before = requests;
    const secret = 'key-\r\nX-Injected: secret-value-123';
    const cases: [string, Record<string, unknown>][] = [
      ['list_faults', { key: secret }],
      ['list_faults', { key: `k${'e'.repeat(5000)}` }],
      ['list_faults', { key: 'caf\u00e9-secret-value-123' }],
      ['list_faults', { key: ['secret-value-123'] }],
      ['restore_checkpoint', { name: 'secret-value-123\uD800' }],
      ['read_journal', { limit: 'x'.repeat(10_000) }],
      ['reset', { [`${'n'.repeat(100)}secret-value-123`]: 1 }],
    ];
    for (const [tool, args] of cases) {
      const result = await mcp.call(tool, args);
      expect(result, JSON.stringify(args).slice(0, 80)).toMatchObject({ isError: true, structuredContent: { code: 'invalid_request', status: 400 } });
      expect(firstText(result).length).toBeLessThan(400);
    }
    expect(mcp.seen()).not.toContain('secret-value-123');
    expect(mcp.seen()).not.toContain('eeeeeeeeee');
    expect(requests, 'nothing was sent for them').toBe(before);
  });
});
