/**
 * The sandbox's MCP server: tools that call its control plane, and its two
 * specs as resources, for coding agents. The SDK's low-level `Server`, so
 * that each tool's input schema is the one derived from the control spec
 * and each refusal is the control plane's own Error body, not the SDK's.
 *
 * The admin token is sent to the sandbox and nowhere else: every result
 * and error is scrubbed of it before it leaves, whatever the sandbox says
 * (scrub.ts). A sandbox that does not answer within the timeout is a tool
 * error, as is an argument no request can carry: a call never ends in a
 * protocol error but for a tool that does not exist.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ControlError, createControlClient, type ControlClient } from '../control/client.js';
import type { ControlResult } from '../control/routes.js';
import { ApiError } from '../kernel/errors.js';
import type { Spec } from '../openapi/spec.js';
import { scrubText, scrubValue } from './scrub.js';
import { ArgumentError, createTools, toRequest, type Tool } from './tools.js';

export interface McpServerOptions {
  /** The sandbox's origin (and any prefix before `/__sandbox`), as `--url` gives it. */
  origin: string;
  adminToken: string;
  /** The workspace a tool acts on when its call names none (`--key`); default the sandbox's first key. */
  key?: string;
  /** How long a call waits for the sandbox's answer before it is given up, in milliseconds; default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  version: string;
  /** The control plane's spec and the interface's (which it refers to): the tools' schemas come from them. */
  control: Spec;
  api: Spec;
}

/** How long a call waits for the sandbox by default: a control-plane call takes milliseconds, a silent sandbox should not hold a client for minutes. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The specs as the sandbox serves them (no credential needed), each a resource at its own URL. */
const RESOURCES = [
  { path: '/docs/openapi.json', name: 'pet-store-interface', title: 'Pet Store interface (OpenAPI)', description: 'The /v1 interface the sandbox serves.' },
  {
    path: '/docs/sandbox-control.json',
    name: 'sandbox-control-plane',
    title: 'Sandbox control plane (OpenAPI)',
    description: 'The /__sandbox control plane the tools call.',
  },
] as const;

/** `ControlClient.text` for an operation chosen at run time. */
type TextAny = (operationId: string, input: unknown, options: { key?: string }) => Promise<string>;

/** Where a call goes, and how long it may wait there. */
interface Sandbox {
  origin: string;
  timeoutMs: number;
  client: ControlClient;
}

/** Whether a failure is the call's own timeout (`AbortSignal.timeout`), before the answer's head or during its body. */
const timedOut = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'TimeoutError' || (error.cause instanceof Error && error.cause.name === 'TimeoutError'));

const silence = ({ origin, timeoutMs }: Pick<Sandbox, 'origin' | 'timeoutMs'>): string =>
  `The sandbox at ${origin} did not answer within ${timeoutMs / 1000} s (mcp --timeout); the call was given up.`;

/** How much of an unexpected failure's message a tool error repeats. */
const MESSAGE_SHOWN = 300;

const errorResult = (body: { code: string; message: string; status: number }): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(body) }],
  structuredContent: body,
});

/** A JSON object's copy for `structuredContent`; none for other answers (a coverage report in Markdown or JUnit XML is text). */
function structured(text: string): { structuredContent?: Record<string, unknown> } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {};
}

/** One tool call: the control plane's answer, its Error body, or why none came. */
async function callTool(sandbox: Sandbox, tool: Tool, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return await sendCall(sandbox, tool, args);
  } catch (error) {
    if (error instanceof ArgumentError) return errorResult(ApiError.of('invalid_request', error.message).toBody());
    if (timedOut(error)) return { isError: true, content: [{ type: 'text', text: silence(sandbox) }] };
    // Anything else the arguments provoked is still this call's failure, not the protocol's.
    const message = `${tool.name} could not be called: ${(error instanceof Error ? error.message : String(error)).slice(0, MESSAGE_SHOWN)}`;
    return errorResult(ApiError.of('internal', message).toBody());
  }
}

/** The call sent: its answer or Error body; throws an ArgumentError, or why no answer came. */
async function sendCall({ client }: Sandbox, tool: Tool, args: Record<string, unknown>): Promise<CallToolResult> {
  const request = toRequest(tool, args);
  const input = { path: request.path, query: request.query, ...(request.body ? { body: request.body } : {}) };
  try {
    // The text as sent: an int64 keeps its digits; the structured copy is for clients that read it.
    const text = await (client.text as TextAny)(tool.operationId, input, request.key === undefined ? {} : { key: request.key });
    return { content: [{ type: 'text', text }], ...structured(text) };
  } catch (error) {
    if (!(error instanceof ControlError) || timedOut(error)) throw error;
    if (error.body && error.status !== undefined) return errorResult({ code: error.body.code, message: error.body.message, status: error.status });
    return { isError: true, content: [{ type: 'text', text: error.message }] };
  }
}

/** A resource as listed. */
interface Resource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: 'application/json';
}

/** Where the control plane serves the spec of each API the sandbox serves (`GET /apis/{index}/spec`). */
const API_SPEC = /\/__sandbox\/apis\/(\d+)\/spec$/;

/**
 * The specs as resources: the two the sandbox serves beside its docs, and,
 * when it serves specs of its own (`--spec`), each of them as the control
 * plane serves it. A sandbox that does not answer lists the first two.
 */
async function listResources({ origin, client }: Sandbox): Promise<Resource[]> {
  const fixed = RESOURCES.map(({ path, ...r }): Resource => ({ uri: `${origin}${path}`, mimeType: 'application/json', ...r }));
  let apis: ControlResult<'listApis'>['apis'];
  try {
    ({ apis } = await client.call('listApis'));
  } catch {
    return fixed;
  }
  // The embedded Pet Store alone is the first resource already.
  if (apis.length === 1 && apis[0]?.embedded === true && apis[0].base === '/v1') return fixed;
  const served = apis.map((api): Resource => ({
    uri: `${origin}${api.specUrl}`,
    name: `api-${api.index}`,
    title: `${api.title} ${api.version} (OpenAPI)`,
    description: `The API the sandbox serves at ${api.base || '/'}, its spec as loaded.`,
    mimeType: 'application/json',
  }));
  return [...fixed, ...served];
}

/** The text of a resource: a spec the sandbox serves beside its docs (no credential), or one of its APIs' through the control plane. */
async function resourceText(uri: string, sandbox: Sandbox): Promise<{ status: number; text: string }> {
  const { origin } = sandbox;
  const index = uri.startsWith(origin) ? API_SPEC.exec(uri.slice(origin.length))?.[1] : undefined;
  if (index !== undefined) {
    try {
      return { status: 200, text: await sandbox.client.text('getApiSpec', { path: { index: Number(index) } }) };
    } catch (error) {
      if (error instanceof ControlError && error.status !== undefined) return { status: error.status, text: JSON.stringify(error.body ?? error.message) };
      throw error;
    }
  }
  if (!RESOURCES.some((r) => `${origin}${r.path}` === uri)) throw new McpError(ErrorCode.InvalidParams, `No resource ${uri}.`);
  const res = await fetch(uri, { signal: AbortSignal.timeout(sandbox.timeoutMs) });
  return { status: res.status, text: await res.text() };
}

/** Reads a spec from the sandbox. */
async function readResource(uri: string, sandbox: Sandbox): Promise<{ contents: { uri: string; mimeType: string; text: string }[] }> {
  const { origin } = sandbox;
  let answer: { status: number; text: string };
  try {
    answer = await resourceText(uri, sandbox);
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (timedOut(error)) throw new McpError(ErrorCode.InternalError, silence(sandbox));
    throw new McpError(ErrorCode.InternalError, `Cannot reach the sandbox at ${origin}: ${String((error as Error).cause ?? (error as Error).message)}`);
  }
  const { status, text } = answer;
  if (status < 200 || status > 299) throw new McpError(ErrorCode.InternalError, `The sandbox answered ${status} for ${uri}: ${text.slice(0, 300)}`);
  return { contents: [{ uri, mimeType: 'application/json', text }] };
}

/** Runs a handler, its result and any error it throws scrubbed of the admin token. */
function guarded<A extends unknown[], R>(token: string, handler: (...args: A) => Promise<R> | R): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return scrubValue(await handler(...args), token);
    } catch (error) {
      const message = scrubText((error as Error).message, token);
      throw error instanceof McpError ? new McpError(error.code, message.replace(/^MCP error -?\d+: /, '')) : new McpError(ErrorCode.InternalError, message);
    }
  };
}

/** Creates the MCP server of the sandbox at `options.origin`; connect it to a transport to serve. */
export function createMcpServer(options: McpServerOptions): Server {
  const origin = options.origin.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = createControlClient({ origin, adminToken: options.adminToken, timeoutMs, ...(options.key === undefined ? {} : { key: options.key }) });
  const sandbox: Sandbox = { origin, timeoutMs, client };
  const tools = new Map(createTools(options.control, options.api).map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: 'petstore-sandbox', version: options.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: `Drives the Pet Store sandbox at ${origin}: its data, faults, journal, checkpoints and mode. Tools that act on a workspace take its API key as \`key\`.`,
    },
  );
  const token = options.adminToken;
  // From the package's own spec, never from the sandbox: nothing to scrub, and a token such as `status` must not rename a schema's property.
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map(({ name, description, schema }) => ({ name, description, inputSchema: schema })),
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    guarded(token, ({ params }) => {
      const tool = tools.get(params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool named '${params.name}'.`);
      return callTool(sandbox, tool, params.arguments ?? {});
    }),
  );
  server.setRequestHandler(
    ListResourcesRequestSchema,
    guarded(token, async () => ({ resources: await listResources(sandbox) })),
  );
  server.setRequestHandler(
    ReadResourceRequestSchema,
    guarded(token, ({ params }) => readResource(params.uri, sandbox)),
  );
  return server;
}
