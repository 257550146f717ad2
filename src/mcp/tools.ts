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

/** Why the arguments cannot even be sent: an argument the request has no place for, or no value for a path. */
export class ArgumentError extends Error {}

const SCALAR = new Set(['string', 'number', 'boolean']);

/** A value for a URL or a header: scalars as their text; anything else cannot be sent there. */
function text(name: string, value: unknown): string {
  if (!SCALAR.has(typeof value)) throw new ArgumentError(`Argument '${name}' must be a ${name === KEY_ARGUMENT ? 'string' : 'string or number'}.`);
  return String(value as string | number | boolean);
}

/** The arguments split into the request's path, query, header and body, as `places` says. */
export function toRequest(tool: Pick<Tool, 'name' | 'schema' | 'places'>, args: Record<string, unknown>): ToolRequest {
  const { path, query, body, others }: ArgumentPlaces = tool.places;
  const request: ToolRequest = { path: {}, query: {}, body: body ? {} : undefined, key: undefined };
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (name === KEY_ARGUMENT) request.key = text(name, value);
    else if (path.includes(name)) request.path[name] = text(name, value);
    else if (query.includes(name)) request.query[name] = text(name, value);
    // Outside the schema: the body takes it when the tool passes its whole body on, and the control plane judges it.
    else if (request.body && (others || name in tool.schema.properties)) request.body[name] = value;
    else unknown.push(name);
  }
  if (unknown.length > 0)
    throw new ArgumentError(
      `${tool.name} takes no argument ${unknown.map((n) => `'${n}'`).join(', ')}; it takes ${Object.keys(tool.schema.properties).join(', ')}.`,
    );
  const missing = path.find((name) => request.path[name] === undefined);
  if (missing !== undefined) throw new ArgumentError(`Argument '${missing}' is required.`);
  return request;
}
