/**
 * Property-based fuzzing of the MCP tools' arguments, against a real
 * sandbox on 127.0.0.1, the server in process. For every call of every
 * tool with arbitrary arguments (the tool's own names and others; JSON
 * values of every kind; text with line breaks, NULs, unpaired surrogates,
 * megabytes; keys no header can carry): a well-formed result or tool error
 * comes back, never a protocol error, and nothing sent back holds the
 * admin token or a key that was given.
 *
 * MCP_FUZZ_RUNS and MCP_FUZZ_SEED reproduce or widen a run.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_SPECS } from '../../src/mcp/tools.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { loadControlSpec } from '../../src/server/control-spec.js';
import { createTools } from '../../src/mcp/tools.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { inProcessMcp, type InProcessMcp } from '../support/mcp-in-process.js';

const RUNS = Number(process.env.MCP_FUZZ_RUNS ?? 300);
const SEED = process.env.MCP_FUZZ_SEED ? Number(process.env.MCP_FUZZ_SEED) : undefined;
const TOKEN = `fuzz-admin-${randomBytes(8).toString('hex')}`;
/** Every key the fuzzer gives starts with this: none may come back. */
const KEY_MARK = 'Zq7keymark';

const tools = createTools(loadControlSpec(), loadSpec());
const namesOf = (tool: string) => Object.keys(tools.find((t) => t.name === tool)?.schema.properties ?? {});

let sb: TestSandbox;
let mcp: InProcessMcp;
beforeAll(async () => {
  sb = await startTestSandbox(['--count', '3', '--admin-token', TOKEN]);
  mcp = await inProcessMcp({ origin: sb.origin, adminToken: TOKEN, timeoutMs: 30_000 });
});
afterAll(async () => {
  await mcp?.close();
  await sb?.stop();
});

/** Numbers that would make a call heavy (a million pets to generate) are brought under a thousand; the rest stay. */
function tame(value: unknown): unknown {
  if (typeof value === 'number' && Math.abs(value) > 1000 && Math.abs(value) <= 1e6) return value % 1000;
  if (Array.isArray(value)) return value.map(tame);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tame(v)]));
  return value;
}

const awkwardText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('a\r\nX-Injected: 1', '\u0000', '\uD800', 'x\uDC00y', ' ', '', '../../etc/passwd', '%00', 'caf\u00e9', '\u{1F600}'),
  fc.nat({ max: 3 }).map((n) => 'x'.repeat([5000, 20_000, 100_000, 1_000_000][n] ?? 1)),
);

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map(tame),
  awkwardText,
  fc.constantFrom(0, -1, 1.5, 2 ** 53 + 2, 1e308, -0, true, false, null),
  fc.array(awkwardText, { maxLength: 3 }),
);

/** A key argument: well-formed or not, each marked so that an echo of it can be found. */
const key = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._~+/-]{0,20}$/).map((s) => `${KEY_MARK}${s}`),
  awkwardText.map((s) => `${KEY_MARK}${s}`),
  fc.constantFrom(1, true, null, ['k'], { k: KEY_MARK }),
);

const call = fc.constantFrom(...TOOL_SPECS.map((t) => t.name)).chain((tool) =>
  fc.record({
    tool: fc.constant(tool),
    args: fc.dictionary(fc.oneof(fc.constantFrom(...namesOf(tool), 'key', '__proto__', 'constructor'), fc.string({ maxLength: 12 })), value, {
      maxKeys: 4,
    }),
    key: fc.option(key, { nil: undefined }),
  }),
);

describe('MCP tool arguments, fuzzed', () => {
  it('every call answers a result or a tool error, never a protocol error, and repeats no secret', async () => {
    await fc.assert(
      fc.asyncProperty(call, async ({ tool, args, key: given }) => {
        const sent = given === undefined ? args : { ...args, key: given };
        const text = JSON.stringify(sent, (_k, v: unknown) => (typeof v === 'string' && v.length > 100 ? `${v.slice(0, 100)}...` : v));
        const result = await mcp.call(tool, sent).catch((error: unknown) => {
          throw new Error(`${tool} ${text}: a protocol error: ${(error as Error).message.slice(0, 300)}`);
        });
        expect(Array.isArray(result.content), text).toBe(true);
        for (const part of result.content) expect(part, text).toMatchObject({ type: 'text', text: expect.any(String) });
        if (result.isError && result.structuredContent)
          expect(result.structuredContent, text).toMatchObject({ code: expect.any(String), message: expect.any(String), status: expect.any(Number) });
        const back = JSON.stringify(result);
        expect(back.includes(TOKEN), `${tool} ${text}: the admin token came back`).toBe(false);
        expect(back.includes(KEY_MARK), `${tool} ${text}: a key came back`).toBe(false);
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), interruptAfterTimeLimit: 90_000 },
    );
    expect(mcp.seen()).not.toContain(TOKEN);
  }, 120_000);
});
