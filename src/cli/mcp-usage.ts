/** The `mcp` command's usage, checked before the MCP SDK is loaded. */

/** The longest `--timeout` (seconds) a call may wait for the sandbox. */
const MAX_TIMEOUT_SECONDS = 3600;

/** `--timeout`'s seconds as milliseconds; undefined when it is not given or not a number of seconds in (0, 3600]. */
export function mcpTimeoutMs(value: string | boolean | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  const seconds = Number(value);
  return seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS ? Math.round(seconds * 1000) : undefined;
}

/** Why the command cannot start (a usage error, exit code 2), or undefined. */
export function mcpUsageProblem(operands: string[], extra: Record<string, string | boolean | undefined>): string | undefined {
  if (operands.length > 0) return "'mcp' takes no arguments.";
  if (typeof extra.url !== 'string') return 'Usage: mcp --url <sandbox origin> [--admin-token-file <file>] [--key <API key>] [--timeout <seconds>]';
  try {
    const url = new URL(extra.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--url must be an http(s) URL, got '${extra.url}'.`;
  } catch {
    return `--url must be an http(s) URL, got '${extra.url}'.`;
  }
  if (extra.timeout !== undefined && (mcpTimeoutMs(extra.timeout) ?? 0) < 1)
    return `--timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, got '${String(extra.timeout)}'.`;
  return undefined;
}
