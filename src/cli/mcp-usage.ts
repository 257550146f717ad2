/** The `mcp` command's usage, checked before the MCP SDK is loaded. */

/** Why the command cannot start (a usage error, exit code 2), or undefined. */
export function mcpUsageProblem(operands: string[], extra: Record<string, string | boolean | undefined>): string | undefined {
  if (operands.length > 0) return "'mcp' takes no arguments.";
  if (typeof extra.url !== 'string') return 'Usage: mcp --url <sandbox origin> [--admin-token-file <file>] [--key <API key>]';
  try {
    const url = new URL(extra.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--url must be an http(s) URL, got '${extra.url}'.`;
  } catch {
    return `--url must be an http(s) URL, got '${extra.url}'.`;
  }
  return undefined;
}
