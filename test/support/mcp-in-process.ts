/**
 * The MCP server in the test's own process: `createMcpServer` joined to the
 * SDK's `Client` by the SDK's in-memory transport, so a test drives every
 * tool without spawning the CLI. Everything the server sent back is kept
 * as text, for tests that scan it (for a secret, say).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { recordedCalls } from './mcp-client.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { loadControlSpec } from '../../src/server/control-spec.js';

const control = loadControlSpec();
const api = loadSpec();

export interface InProcessMcp {
  client: Client;
  /** Calls a tool; its result whole, or the protocol error thrown (a JSON-RPC error). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Every result and protocol error message the server sent back, as text. */
  seen(): string;
  close(): Promise<void>;
}

/** A connected client of an MCP server made with `options` (the specs are the package's own). */
export async function inProcessMcp(options: Omit<McpServerOptions, 'control' | 'api' | 'version'>): Promise<InProcessMcp> {
  const server = createMcpServer({ ...options, version: '0.0.0-test', control, api });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'petstore-sandbox-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const { call, seen } = recordedCalls(client);
  return {
    client,
    call,
    seen,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a result's first content. */
export function firstText(result: CallToolResult): string {
  const [first] = result.content;
  if (first?.type !== 'text') throw new Error(`no text in ${JSON.stringify(result)}`);
  return first.text;
}
