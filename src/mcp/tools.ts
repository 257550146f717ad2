/**
 * The MCP tools: each one control-plane operation, its arguments typed from
 * the operation's schema (`tool-schemas.ts`), its description the spec's.
 * A call sends the arguments where the operation takes them and lets the
 * control plane judge them, so a bad argument is refused with the control
 * plane's own Error body.
 */
import type { Spec } from '../openapi/spec.js';
import { KEY_ARGUMENT, toolArguments, type ArgumentPlaces, type ToolArguments } from './tool-schemas.js';

/** One tool: its name, the operation it calls, and, for a tool that takes part of a body, the properties it takes. */
export interface ToolSpec {
  name: string;
  operationId: string;
  /** Said instead of the operation's own summary and description. */
  description?: string;
  pick?: readonly string[];
}

/** The tools, in the order a client lists them. */
export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'reset',
    operationId: 'resetWorkspace',
    pick: ['empty'],
    description: "Resets the workspace to a fresh sandbox's pets (the sandbox's --seed and --count), or to none with empty: true.",
  },
  {
    name: 'seed',
    operationId: 'resetWorkspace',
    pick: ['seed', 'count'],
    description:
      "Replaces the workspace's pets with `count` pets generated from the faker `seed` (ids from 1); each defaults to the sandbox's --seed and --count.",
  },
  { name: 'list_fixtures', operationId: 'listFixtures' },
  { name: 'load_fixture', operationId: 'loadFixture' },
  { name: 'add_fault', operationId: 'addFault' },
  { name: 'list_faults', operationId: 'listFaults' },
  { name: 'remove_fault', operationId: 'deleteFault' },
  { name: 'clear_faults', operationId: 'clearFaults' },
  { name: 'read_journal', operationId: 'readJournal' },
  { name: 'coverage', operationId: 'readCoverage' },
  { name: 'list_checkpoints', operationId: 'listCheckpoints' },
  { name: 'save_checkpoint', operationId: 'saveCheckpoint' },
  { name: 'restore_checkpoint', operationId: 'restoreCheckpoint' },
  { name: 'get_mode', operationId: 'getMode' },
  { name: 'set_mode', operationId: 'setMode' },
  { name: 'list_apis', operationId: 'listApis' },
];

/** A tool ready to list and call. */
export interface Tool extends ToolSpec, ToolArguments {
  description: string;
}

/** The tools with their argument schemas, derived from the control spec (and the interface's, which it refers to). */
export function createTools(control: Spec, api: Spec): Tool[] {
  const paths = control.document.paths as Record<string, Record<string, { summary?: string; description?: string } | undefined>>;
  return TOOL_SPECS.map((spec) => {
    const op = control.operations.get(spec.operationId);
    const raw = op ? paths[op.path]?.[op.method] : undefined;
    const said = [raw?.summary, raw?.description?.trim()].filter(Boolean).join('. ');
    return { ...spec, ...toolArguments(control, api, spec.operationId, spec.pick), description: spec.description ?? said };
  });
}

/** A request's parts, from a tool's arguments. */
export interface ToolRequest {
  path: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  key: string | undefined;
}

/** Why the arguments cannot even be sent: an argument the request has no place for, no value for a path, or a value no request can carry. */
export class ArgumentError extends Error {}

const SCALAR = new Set(['string', 'number', 'boolean']);
/** The longest API key a call sends: far past any configured one, far below the 16 KiB a request head may take. */
export const MAX_KEY_LENGTH = 1024;
/** The longest path or query value a call sends, for the same head. */
export const MAX_URL_VALUE_LENGTH = 4096;
/** What `X-Sandbox-Key` can carry: visible ASCII (a line break would end the header, and `fetch` refuses it). */
const KEY_TEXT = /^[\x21-\x7e]+$/;
/** An unpaired surrogate, which no URL can encode. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** How much of an argument's name a message repeats: the names come from the caller. */
const NAME_SHOWN = 40;

/** An argument's name as a message shows it, cut to {@link NAME_SHOWN} characters. */
const shown = (name: string): string => `'${name.length > NAME_SHOWN ? `${name.slice(0, NAME_SHOWN)}...` : name}'`;

/**
 * A value for a URL or a header: scalars as their text; anything else, and
 * text no request can carry, is refused. The message never repeats the
 * value: a key is a credential, and a value may be megabytes.
 */
function text(name: string, value: unknown): string {
  const isKey = name === KEY_ARGUMENT;
  if (!SCALAR.has(typeof value) || (isKey && typeof value === 'boolean'))
    throw new ArgumentError(`Argument ${shown(name)} must be a ${isKey ? 'string' : 'string or number'}.`);
  const result = String(value as string | number | boolean);
  if (isKey && (result.length > MAX_KEY_LENGTH || !KEY_TEXT.test(result)))
    throw new ArgumentError(
      `Argument 'key' must be an API key of 1 to ${MAX_KEY_LENGTH} visible ASCII characters (no space, control character or line break); the value is not repeated here.`,
    );
  if (!isKey && (result.length > MAX_URL_VALUE_LENGTH || LONE_SURROGATE.test(result)))
    throw new ArgumentError(
      `Argument ${shown(name)} must be at most ${MAX_URL_VALUE_LENGTH} characters of well-formed Unicode; the value is not repeated here.`,
    );
  return result;
}

/** The arguments split into the request's path, query, header and body, as `places` says. */
export function toRequest(tool: Pick<Tool, 'name' | 'schema' | 'places'>, args: Record<string, unknown>): ToolRequest {
  const { path, query, body, others }: ArgumentPlaces = tool.places;
  const request: ToolRequest = { path: {}, query: {}, body: undefined, key: undefined };
  const inBody: [string, unknown][] = [];
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (name === KEY_ARGUMENT) request.key = text(name, value);
    else if (path.includes(name)) request.path[name] = text(name, value);
    else if (query.includes(name)) request.query[name] = text(name, value);
    // Outside the schema: the body takes it when the tool passes its whole body on, and the control plane judges it.
    else if (body && (others || Object.hasOwn(tool.schema.properties, name))) inBody.push([name, value]);
    else unknown.push(name);
  }
  if (unknown.length > 0)
    throw new ArgumentError(
      `${tool.name} takes no argument ${unknown.slice(0, 5).map(shown).join(', ')}${unknown.length > 5 ? ` (and ${unknown.length - 5} more)` : ''}; ` +
        `it takes ${Object.keys(tool.schema.properties).join(', ')}.`,
    );
  const missing = path.find((name) => request.path[name] === undefined);
  if (missing !== undefined) throw new ArgumentError(`Argument '${missing}' is required.`);
  // fromEntries: a `__proto__` argument stays an own property, as the caller sent it.
  if (body) request.body = Object.fromEntries(inBody);
  return request;
}
