/**
 * `petstore-sandbox mcp --url <sandbox>`: the MCP server on stdio. Its
 * stdout carries the protocol and nothing else; what it has to say goes to
 * stderr, through `say`. Loaded only for this command, so serving never
 * loads the MCP SDK.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../config/load.js';
import { PACKAGE_VERSION } from '../config/paths.js';
import { loadControlSpec } from '../server/control-spec.js';
import { createMcpServer, DEFAULT_TIMEOUT_MS } from '../mcp/server.js';
import { loadSpec } from '../openapi/load-spec.js';
import { mcpTimeoutMs } from './mcp-usage.js';

/**
 * Serves MCP on this process's stdin and stdout for the sandbox at `--url`,
 * with the admin token of `config` (`--admin-token-file`), each call given
 * up after `--timeout` seconds (default 10); resolves with
 * the exit code once the client closes stdin, or on SIGINT or SIGTERM.
 */
export async function runMcp(config: Config, extra: Record<string, string | boolean | undefined>, say: (line: string) => void): Promise<number> {
  const origin = extra.url as string;
  const server = createMcpServer({
    origin,
    adminToken: config.adminToken,
    ...(typeof extra.key === 'string' ? { key: extra.key } : {}),
    timeoutMs: mcpTimeoutMs(extra.timeout) ?? DEFAULT_TIMEOUT_MS,
    version: PACKAGE_VERSION,
    control: loadControlSpec(),
    api: loadSpec(),
  });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  const stop = () => void server.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // The SDK's transport reads stdin but does not close on its end: a client that closes stdin is done.
  process.stdin.once('end', stop);
  await server.connect(new StdioServerTransport());
  say(`petstore-sandbox mcp: serving the Model Context Protocol on stdio for the sandbox at ${origin.replace(/\/+$/, '')}`);
  await closed;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  return 0;
}
