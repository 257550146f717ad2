/**
 * The MCP server of a sandbox serving two specs (`--spec`): `list_apis`
 * answers what `GET /__sandbox/apis` does, and each served spec is a
 * resource of its own, read through the control plane with the admin
 * token, which nothing sent back contains.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { controlOf } from '../support/control-client.js';
import { firstText, inProcessMcp, type InProcessMcp } from '../support/mcp-in-process.js';
import { INVENTORY, PETSTORE_11 } from '../support/own-spec.js';

const TOKEN = 'mcp-apis-admin-token-4b2e8d';
let sb: TestSandbox;
let mcp: InProcessMcp;

beforeAll(async () => {
  sb = await startTestSandbox(['--spec', PETSTORE_11, '--spec', INVENTORY, '--count', '2', '--admin-token', TOKEN]);
  mcp = await inProcessMcp({ origin: sb.origin, adminToken: TOKEN });
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await sb?.stop();
});

describe('the MCP server with two specs', { timeout: 60_000 }, () => {
  it('list_apis answers the served APIs as the control plane lists them', async () => {
    const result = await mcp.call('list_apis');
    expect(result.isError).toBeFalsy();
    const listed = (await controlOf(sb)('GET', '/apis')).body;
    expect(JSON.parse(firstText(result))).toEqual(listed);
    expect(listed.apis.map((a: { base: string }) => a.base)).toEqual(['/v1', '/api/v2']);
  });

  it('lists each served spec as a resource beside the two of the docs, and reads it as loaded', async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      `${sb.origin}/docs/openapi.json`,
      `${sb.origin}/docs/sandbox-control.json`,
      `${sb.origin}/__sandbox/apis/0/spec`,
      `${sb.origin}/__sandbox/apis/1/spec`,
    ]);
    expect(resources[3]).toMatchObject({ name: 'api-1', title: 'Inventory 2.0.0 (OpenAPI)', mimeType: 'application/json' });
    const { contents } = await mcp.client.readResource({ uri: `${sb.origin}/__sandbox/apis/1/spec` });
    expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(parse(readFileSync(INVENTORY, 'utf8')));
    await expect(mcp.client.readResource({ uri: `${sb.origin}/__sandbox/apis/2/spec` })).rejects.toThrow(/answered 404/);
    expect(mcp.seen()).not.toContain(TOKEN);
  });
});
