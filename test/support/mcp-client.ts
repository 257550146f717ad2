/**
 * The MCP server as an agent meets it: the CLI bundled as `npm run build`
 * bundles it (bundle.ts), spawned as `petstore-sandbox mcp` by the SDK's
 * own `StdioClientTransport`, driven by the SDK's `Client`. Everything the
 * server sends back is kept, so a test can scan it all (for the admin
 * token, say).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bundleSandbox } from './bundle.js';
import { tempDir } from './harness.js';
import { ROOT } from './spawn.js';

const bundled = new Map<string, Promise<string>>();
/** The CLI, bundled once per test file (`name`: a folder of its own under test-output/, one per file, as files run side by side). */
export function builtCli(name = 'mcp-cli'): Promise<string> {
  const found = bundled.get(name) ?? bundleSandbox(name);
  bundled.set(name, found);
  return found;
}

export interface McpSession {
  client: Client;
  /** Calls a tool; the result whole (an error result too: `isError`). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The JSON of a successful call's text. */
  ok(name: string, args?: Record<string, unknown>): Promise<unknown>;
  /** Every message the server sent back (results and protocol errors), as text. */
  seen(): string;
  /** What the server wrote to stderr. */
  stderr(): string;
  /** Transport or protocol failures the client met (a stray line on stdout is one). */
  failures(): Error[];
  close(): Promise<void>;
}

/** A client's tool calls, each result (or protocol error's message) kept as text for tests that scan what the server sent. */
export function recordedCalls(client: Client): { call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>; seen(): string } {
  let seen = '';
  return {
    async call(name, args = {}) {
      try {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        seen += `${JSON.stringify(result)}\n`;
        return result;
      } catch (error) {
        seen += `${(error as Error).message}\n`;
        throw error;
      }
    },
    seen: () => seen,
  };
}

/** Spawns `petstore-sandbox mcp --url <origin> --admin-token-file <file holding token>` and connects the SDK's client. */
export async function startMcp(origin: string, token: string, extraArgs: string[] = []): Promise<McpSession> {
  const file = join(tempDir('petstore-mcp-'), 'admin-token');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [await builtCli(), 'mcp', '--url', origin, '--admin-token-file', file, ...extraArgs],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const failures: Error[] = [];
  const client = new Client({ name: 'petstore-sandbox-test', version: '1.0.0' });
  client.onerror = (error) => failures.push(error);
  await client.connect(transport);
  const { call, seen } = recordedCalls(client);
  return {
    client,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      const [first] = result.content;
      if (first?.type !== 'text') throw new Error(`${name} answered no text`);
      return JSON.parse(first.text) as unknown;
    },
    seen,
    stderr: () => stderr,
    failures: () => failures,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content, parsed as JSON. */
export function resultJson(result: CallToolResult): unknown {
  const [first] = result.content;
  if (first?.type !== 'text') throw new Error(`no text in ${JSON.stringify(result)}`);
  return JSON.parse(first.text) as unknown;
}
