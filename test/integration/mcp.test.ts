/**
 * `petstore-sandbox mcp`, as a coding agent meets it: the built CLI spawned
 * by the SDK's StdioClientTransport, driven by the SDK's Client, against a
 * real sandbox on 127.0.0.1. Each tool's effect is checked on the sandbox
 * through HTTP, not through the MCP server; a bad argument must come back
 * as the very Error body the control plane answers the same request with;
 * the admin token must appear in nothing the server sent back.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf, controlOf, type Control } from '../support/control-client.js';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { builtCli, resultJson, startMcp, type McpSession } from '../support/mcp-client.js';

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/every-status.json', import.meta.url), 'utf8')) as { pets: unknown[] };
const TOKEN = 'mcp-admin-token-7f3c9a1e5b';
const OTHER_KEY = 'key-b';
const TOOLS = [
  'reset',
  'seed',
  'list_fixtures',
  'load_fixture',
  'add_fault',
  'list_faults',
  'remove_fault',
  'clear_faults',
  'read_journal',
  'coverage',
  'list_checkpoints',
  'save_checkpoint',
  'restore_checkpoint',
  'get_mode',
  'set_mode',
  'list_apis',
];

let sb: TestSandbox;
let ctl: Control;
let mcp: McpSession;
/** Text the server sent that the session does not keep by itself (lists, resources). */
let listed = '';

/** A workspace's pets, as the sandbox exports them over HTTP. */
const exported = async (key = KEY): Promise<unknown[]> => (await clientOf(sb, key).call('exportWorkspace')).pets;

beforeAll(async () => {
  await builtCli();
  sb = await startTestSandbox(['--admin-token', TOKEN, '--api-keys', `${KEY},${OTHER_KEY}`]);
  ctl = controlOf(sb);
  mcp = await startMcp(sb.origin, TOKEN);
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await sb?.stop();
});

describe('petstore-sandbox mcp', { timeout: 60_000 }, () => {
  it('lists its tools, each with an input schema derived from the control spec, and the two specs as resources', async () => {
    const { tools } = await mcp.client.listTools();
    listed += JSON.stringify(tools);
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    const schema = (name: string) => tools.find((t) => t.name === name)?.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    // The control spec's own enums and bounds, reached through its $refs (FaultInput, Mode, the interface's Pet).
    const control = (await fetch(`${sb.origin}/docs/sandbox-control.json`).then((r) => r.json())) as {
      components: { schemas: Record<string, { properties: Record<string, { type?: string; minLength?: number }>; enum?: unknown[] }> };
    };
    // Any served spec's operationId: a non-empty string, as the control spec says (the sandbox then checks it against the specs served).
    const { type, minLength } = control.components.schemas.FaultInput?.properties.operationId ?? {};
    expect([type, minLength]).toEqual(['string', 1]);
    expect(schema('add_fault').properties.operationId).toMatchObject({ type, minLength });
    expect(schema('add_fault').required).toEqual(['operationId']);
    expect(schema('set_mode').properties.mode).toMatchObject({ enum: control.components.schemas.Mode?.enum });
    expect(schema('load_fixture').properties.pets).toMatchObject({ items: { required: ['id', 'name', 'categoryId'] } });
    expect(schema('remove_fault')).toMatchObject({ required: ['faultId'], properties: { faultId: { type: 'integer', minimum: 1 } } });
    expect(schema('read_journal').properties).toHaveProperty('limit');
    expect(Object.keys(schema('seed').properties).sort()).toEqual(['count', 'key', 'seed']);

    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`${sb.origin}/docs/openapi.json`, `${sb.origin}/docs/sandbox-control.json`]);
    for (const resource of resources) {
      const { contents } = await mcp.client.readResource({ uri: resource.uri });
      listed += JSON.stringify(contents);
      expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(await fetch(resource.uri).then((r) => r.json()));
    }
  });

  it('seed, reset and load_fixture change the workspace named by key, and only it', async () => {
    expect(await mcp.ok('seed', { seed: 3, count: 4 })).toMatchObject({ count: 4, nextId: 5 });
    const seeded = await exported();
    expect(seeded.map((p) => (p as { id: number }).id)).toEqual([1, 2, 3, 4]);
    expect(await mcp.ok('reset', { empty: true, key: OTHER_KEY })).toMatchObject({ count: 0 });
    expect((await sb.call('/pets', { key: OTHER_KEY })).body).toEqual([]);
    expect(await exported()).toEqual(seeded);
    expect(await mcp.ok('reset')).toMatchObject({ count: sb.config.count });

    expect(await mcp.ok('list_fixtures')).toMatchObject({ fixtures: expect.arrayContaining(['every-status']) });
    await mcp.ok('load_fixture', { fixture: 'every-status' });
    expect(await exported()).toEqual(fixture.pets);
  });

  it('add_fault, list_faults, remove_fault and clear_faults: the fault answers /v1 until removed', async () => {
    const fault = (await mcp.ok('add_fault', { operationId: 'listPets', status: 503 })) as { id: number };
    expect((await sb.call('/pets')).status).toBe(503);
    expect(await mcp.ok('list_faults')).toMatchObject({ faults: [{ id: fault.id, operationId: 'listPets', status: 503 }] });
    await mcp.ok('remove_fault', { faultId: fault.id });
    expect((await ctl('GET', '/faults')).body).toMatchObject({ faults: [] });
    expect((await sb.call('/pets')).status).toBe(200);
    await mcp.ok('add_fault', { operationId: 'getPet', status: 500 });
    await mcp.ok('clear_faults');
    expect((await ctl('GET', '/faults')).body).toMatchObject({ faults: [] });
  });

  it('read_journal shows the requests the workspace received', async () => {
    await sb.call('/pets/1');
    await sb.call('/pets?status=sold');
    const journal = (await mcp.ok('read_journal', { limit: 1 })) as { entries: { method: string; path: string; query: unknown; status: number }[] };
    expect(journal.entries).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/pets', query: { status: 'sold' }, status: 200 })]);
  });

  it('coverage counts the requests per operation and documented status, in JSON and Markdown, as the control plane reports them', async () => {
    const other = clientOf(sb, OTHER_KEY);
    await other.call('clearJournal');
    await sb.call('/pets', { key: OTHER_KEY });
    await sb.call('/pets', { key: OTHER_KEY });
    await sb.call('/pets/999999', { key: OTHER_KEY });
    type Report = { requests: number; operations: { operationId: string; statuses: { status: number; count: number }[] }[] };
    const report = (await mcp.ok('coverage', { key: OTHER_KEY })) as Report;
    expect(report.requests).toBe(3);
    const counts = (id: string) => Object.fromEntries(report.operations.find((o) => o.operationId === id)?.statuses.map((s) => [s.status, s.count]) ?? []);
    expect(counts('listPets')).toMatchObject({ 200: 2 });
    expect(counts('getPet')).toMatchObject({ 200: 0, 404: 1 });
    expect(report).toEqual(await other.call('readCoverage'));
    const markdown = await mcp.call('coverage', { key: OTHER_KEY, format: 'markdown', 'fail-under': 50 });
    expect(markdown.structuredContent).toBeUndefined();
    expect(markdown.content).toEqual([{ type: 'text', text: await other.text('readCoverage', { query: { format: 'markdown', 'fail-under': 50 } }) }]);
  });

  it('save_checkpoint and restore_checkpoint give back the exact export; list_checkpoints names it', async () => {
    const before = await clientOf(sb).text('exportWorkspace');
    await mcp.ok('save_checkpoint', { name: 'before-mcp' });
    expect(await mcp.ok('list_checkpoints')).toMatchObject({ checkpoints: [expect.objectContaining({ name: 'before-mcp' })] });
    await mcp.ok('seed', { seed: 9, count: 2 });
    expect(await clientOf(sb).text('exportWorkspace')).not.toBe(before);
    await mcp.ok('restore_checkpoint', { name: 'before-mcp' });
    expect(await clientOf(sb).text('exportWorkspace')).toBe(before);
  });

  it('set_mode switches how /v1 answers; get_mode says so', async () => {
    await mcp.ok('set_mode', { mode: 'example' });
    expect((await ctl('GET', '/mode')).body).toMatchObject({ mode: 'example' });
    expect(await mcp.ok('get_mode')).toMatchObject({ mode: 'example' });
    await mcp.ok('set_mode', { mode: 'stateful' });
    expect((await ctl('GET', '/mode')).body).toMatchObject({ mode: 'stateful' });
  });

  it("refuses a bad argument with the control plane's own Error body, and changes nothing", async () => {
    const bad = { operationId: 'listPets', status: 999 };
    const refused = await mcp.call('add_fault', bad);
    expect(refused.isError).toBe(true);
    const direct = await ctl('POST', '/faults', { json: bad });
    expect(direct.status).toBe(400);
    expect(resultJson(refused)).toEqual(direct.body);
    expect(refused.structuredContent).toEqual(direct.body);
    expect((await ctl('GET', '/faults')).body).toMatchObject({ faults: [] });
    // A property the fault's schema does not allow: sent on, refused by the control plane.
    const stray = { operationId: 'listPets', colour: 'red' };
    expect(resultJson(await mcp.call('add_fault', stray))).toEqual((await ctl('POST', '/faults', { json: stray })).body);
    expect((await ctl('GET', '/faults')).body).toMatchObject({ faults: [] });
    // Typed from the spec: a limit that is not an integer, a mode the spec does not list.
    expect(resultJson(await mcp.call('read_journal', { limit: 'many' }))).toEqual((await ctl('GET', '/journal?limit=many')).body);
    expect(resultJson(await mcp.call('coverage', { format: 'pdf' }))).toEqual((await ctl('GET', '/coverage?format=pdf')).body);
    expect(resultJson(await mcp.call('set_mode', { mode: 'chaos' }))).toEqual((await ctl('PUT', '/mode', { json: { mode: 'chaos' } })).body);
    // No request can carry these: refused in the control plane's words.
    expect(resultJson(await mcp.call('remove_fault', {}))).toEqual({ code: 'invalid_request', message: "Argument 'faultId' is required.", status: 400 });
    expect(resultJson(await mcp.call('reset', { seed: 1 }))).toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('wrote nothing but the protocol on stdout, and never sent the admin token back', () => {
    expect(mcp.failures()).toEqual([]);
    const everything = mcp.seen() + listed;
    expect(everything.length).toBeGreaterThan(1000);
    expect(everything).not.toContain(TOKEN);
    expect(mcp.stderr()).not.toContain(TOKEN);
  });
});

describe('petstore-sandbox mcp, when the sandbox will not serve it', { timeout: 60_000 }, () => {
  it('a wrong admin token: the control plane refuses each call, and neither token is sent back', async () => {
    const wrong = 'not-the-admin-token-42';
    await clientOf(sb).call('resetWorkspace', { body: { seed: 1, count: 3 } });
    const session = await startMcp(sb.origin, wrong);
    try {
      const refused = await session.call('reset', { empty: true });
      expect(refused.isError).toBe(true);
      expect(resultJson(refused)).toEqual((await ctl('POST', '/reset', { token: wrong, json: { empty: true } })).body);
      expect(resultJson(refused)).toMatchObject({ code: 'forbidden', status: 403 });
      expect(await exported()).toHaveLength(3);
      expect(session.seen()).not.toContain(wrong);
      expect(session.seen()).not.toContain(TOKEN);
    } finally {
      await session.close();
    }
  });

  it('a sandbox that is down: each call says it cannot reach it, and the server keeps running', async () => {
    const down = await closedOrigin();
    const session = await startMcp(down, TOKEN);
    try {
      for (let i = 0; i < 2; i++) {
        const failed = await session.call('list_faults');
        expect(failed.isError).toBe(true);
        expect(failed.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining(`Cannot reach the sandbox's control plane at ${down}`) });
      }
      await expect(session.client.readResource({ uri: `${down}/docs/openapi.json` })).rejects.toThrow(/Cannot reach the sandbox/);
      expect(session.seen()).not.toContain(TOKEN);
      expect(session.failures()).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

/** An origin on 127.0.0.1 where nothing listens: a port the OS gave and took back. */
async function closedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
