/**
 * A state-change request as each Pact verifier sends it, read into one form.
 *
 * | Verifier | Sends |
 * |---|---|
 * | Rust core (`pact_verifier_cli`, pact-js 10+, every FFI-based Pact) | `{"state", "params", "action": "setup"\|"teardown"}`; with `--state-change-as-query`, `?state=...&action=...&<param>=...` and no body |
 * | pact-jvm | `{"state", "params"?, "action"?}` (`action` only with `stateChangeTeardown`); or the query form |
 * | Ruby `pact-provider-verifier` | `{"consumer", "state", "states": [...], "params"}`, setup only |
 *
 * Every verifier but Ruby's also calls for an interaction without any
 * state, with an empty name (Ruby's with `null`): that is a change to
 * nothing, not an unknown state.
 */
import { parseJson } from '../kernel/json.js';
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import type { StateParams } from './provider-states.js';

export type StateAction = 'setup' | 'teardown';

/**
 * The most states one request names (the Ruby verifier's `states` list):
 * an interaction names a few, and each is checked and planned before
 * anything is written (docs/limits.md; `maxItems` in spec/sandbox-control.yaml).
 */
export const MAX_STATES = 100;

export interface StateChange {
  /** The states named, in order; empty when the interaction has none. */
  states: string[];
  params: StateParams;
  action: StateAction;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function actionOf(raw: unknown): StateAction {
  if (raw === undefined || raw === null || raw === '' || raw === 'setup') return 'setup';
  if (raw === 'teardown') return 'teardown';
  throw ApiError.of('invalid_request', `"action" must be "setup" or "teardown", got ${echo(JSON.stringify(raw), '')}.`);
}

/** A name, or none for an empty or null one; anything else is refused. */
function nameOf(raw: unknown, field: string): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw === 'string') return [raw];
  throw ApiError.of('invalid_request', `"${field}" must be a provider state's name (a string).`);
}

/** The JSON body forms: `state` wins over the legacy `states` list when both are sent. */
function fromBody(body: Record<string, unknown>): StateChange {
  const { state, states, params, action } = body;
  if (params !== undefined && params !== null && !isObject(params)) throw ApiError.of('invalid_request', '"params" must be a JSON object.');
  if (states !== undefined && states !== null && !Array.isArray(states)) throw ApiError.of('invalid_request', '"states" must be an array of names.');
  if (Array.isArray(states) && states.length > MAX_STATES)
    throw ApiError.of('invalid_request', `"states" names ${states.length} states; a request names at most ${MAX_STATES}. Nothing was changed.`);
  const names = state !== undefined && state !== null ? nameOf(state, 'state') : (states ?? []).flatMap((s: unknown, i: number) => nameOf(s, `states.${i}`));
  return { states: names, params: params ?? {}, action: actionOf(action) };
}

/**
 * A query parameter's value: verifiers write a non-string parameter as its
 * JSON text (`7`, `true`, `null`), so text that reads as such a JSON value
 * is taken as that value; anything else is the string itself.
 */
function queryValue(raw: unknown): unknown {
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (typeof text !== 'string') return text;
  if (/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)$/.test(text)) return parseJson(text);
  return text;
}

/** The query form: `state`, `action`, and every other parameter a param of the state. */
function fromQuery(query: Record<string, unknown>): StateChange {
  const params: StateParams = {};
  for (const [name, value] of Object.entries(query)) if (name !== 'state' && name !== 'action') params[name] = queryValue(value);
  const state = Array.isArray(query.state) ? query.state[0] : query.state;
  return { states: nameOf(state, 'state'), params, action: actionOf(Array.isArray(query.action) ? query.action[0] : query.action) };
}

/**
 * The change a request asks for: from its JSON body when it has one,
 * otherwise from its query string. Throws a 400 ApiError saying what is wrong.
 */
export function readStateChange(body: unknown, query: Record<string, unknown>): StateChange {
  if (body === undefined) return fromQuery(query);
  if (!isObject(body)) throw ApiError.of('invalid_request', 'The request body must be a JSON object: {"state", "params", "action"}.');
  return fromBody(body);
}
