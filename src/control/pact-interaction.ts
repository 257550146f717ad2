/**
 * One journaled `/v1` exchange as an interaction of a Pact V4 file: the
 * request as the consumer sent it (its key replaced by a placeholder), the
 * response as `pact-bodies.ts` matches it, and the provider states, from the
 * sandbox's vocabulary, that the answer needed.
 */
import { isBodyText, isObject, responseBody, type PactBody, type Rules } from './pact-bodies.js';
import type { JournalEntry } from '../store/journal/types.js';
import { PET_STATUSES } from './provider-states.js';
import { FAULT_MESSAGE } from '../store/faults.js';

/** What stands for the consumer's key: the sandbox's documented development key, and a matcher for any bearer token. */
export const KEY_PLACEHOLDER = 'Bearer sandbox-key';
const BEARER_REGEX = '^Bearer [A-Za-z0-9\\-._~+/]+=*$';
export interface ProviderStateRef {
  name: string;
  params?: Record<string, unknown>;
}

export type PactInteraction = {
  type: 'Synchronous/HTTP';
  description: string;
  pending: false;
  providerStates?: ProviderStateRef[];
  request: {
    method: string;
    path: string;
    query?: Record<string, string[]>;
    headers?: Record<string, string[]>;
    body?: PactBody;
    matchingRules?: { header: Rules };
  };
  response: { status: number; headers: Record<string, string[]>; body: PactBody; matchingRules?: { body: Rules } };
};

/** A recordable interaction and what makes it distinct from others: operation, status and request shape. */
export interface Recorded {
  shape: string;
  interaction: PactInteraction;
}

/** The JSON types of a value's top-level fields, as a shape: `{categoryId:number,name:string}`. */
function shapeOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (!isObject(value)) return Array.isArray(value) ? 'array' : typeof value;
  const fields = Object.keys(value)
    .sort()
    .map(
      (k) =>
        `${k}:${
          value[k] === null ? 'null'
          : Array.isArray(value[k]) ? 'array'
          : typeof value[k]
        }`,
    );
  return `{${fields.join(',')}}`;
}

const queryString = (query: JournalEntry['query']) =>
  new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]))).toString();

/** The provider states an answer needed, named from the vocabulary. */
function statesOf(entry: JournalEntry, authenticated: boolean): ProviderStateRef[] {
  if (!authenticated) return [{ name: 'the request has no valid API key' }];
  const body = entry.responseBody;
  if (entry.operationId === 'getPet' && entry.status === 200 && isObject(body)) {
    const { id, name, categoryId, status = null } = body;
    return [{ name: `a pet with id ${String(id)} exists`, params: { id, name, categoryId, status } }];
  }
  if (entry.operationId === 'getPet' && entry.status === 404) {
    const petId = decodeURIComponent(entry.path.slice(entry.path.lastIndexOf('/') + 1));
    return /^\d+$/.test(petId) ? [{ name: `no pet with id ${petId} exists`, params: { id: Number(petId) } }] : [{ name: 'no pets exist' }];
  }
  if (entry.operationId === 'listPets' && entry.status === 200) {
    if (Array.isArray(body) && body.length === 0) return [{ name: 'no pets exist' }];
    const first = Array.isArray(body) ? body[0] : undefined;
    const filter = (PET_STATUSES as readonly unknown[]).includes(entry.query.status) ? entry.query.status : undefined;
    const status = filter ?? (isObject(first) && typeof first.status === 'string' ? first.status : 'available');
    return [{ name: `pets with status ${String(status)} exist`, params: { status } }];
  }
  return [];
}

/** Why an entry is left out of a pact, or undefined when it can be recorded. */
function unrecordable(entry: JournalEntry, authenticated: boolean): string | undefined {
  // Only exchanges the interface allows: never a request no operation matches (404, 405, 501) or an undocumented status.
  if (!entry.operationId || !entry.specValid) return 'not an exchange the spec allows';
  // With a valid key, only a fault, `Prefer: code=401` or a provider state can answer 401: rehearsals, not the provider.
  if (authenticated === (entry.status === 401)) return 'a 401 is recorded from requests without a valid key only';
  const message = isObject(entry.responseBody) ? entry.responseBody.message : undefined;
  if (typeof message === 'string' && message.startsWith(FAULT_MESSAGE)) return 'forced by a fault';
  if (isBodyText(entry.requestBody)) return 'its request body was not kept whole as JSON';
  return undefined;
}

/** A journal entry as an interaction, or undefined when it cannot be recorded (see `unrecordable`). */
export function recordInteraction(entry: JournalEntry, authenticated: boolean): Recorded | undefined {
  if (unrecordable(entry, authenticated)) return undefined;
  const response = responseBody(entry);
  if (!response) return undefined;
  const hasBody = entry.requestBody !== null;
  const qs = queryString(entry.query);
  const headers: Record<string, string[]> = {
    ...(authenticated ? { Authorization: [KEY_PLACEHOLDER] } : {}),
    ...(hasBody ? { 'Content-Type': ['application/json'] } : {}),
  };
  const states = statesOf(entry, authenticated);
  const bodyShape = shapeOf(entry.requestBody);
  const interaction: PactInteraction = {
    type: 'Synchronous/HTTP',
    description: `${entry.operationId} ${entry.status}: ${entry.method} ${entry.path}${qs ? `?${qs}` : ''}${bodyShape ? ` with ${bodyShape}` : ''}`,
    pending: false,
    ...(states.length > 0 ? { providerStates: states } : {}),
    request: {
      method: entry.method,
      path: entry.path,
      ...(qs ? { query: Object.fromEntries(Object.entries(entry.query).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])) } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(hasBody ? { body: { content: entry.requestBody, contentType: 'application/json' as const, encoded: false as const } } : {}),
      ...(authenticated ?
        { matchingRules: { header: { Authorization: { combine: 'AND' as const, matchers: [{ match: 'regex' as const, regex: BEARER_REGEX }] } } } }
      : {}),
    },
    response: {
      status: entry.status,
      headers: { 'Content-Type': ['application/json'], ...(entry.status === 401 ? { 'WWW-Authenticate': ['Bearer'] } : {}) },
      body: response.body,
      ...(Object.keys(response.rules).length > 0 ? { matchingRules: { body: response.rules } } : {}),
    },
  };
  const shape = [entry.operationId, entry.status, Object.keys(entry.query).sort().join(','), bodyShape, authenticated].join(' ');
  return { shape, interaction };
}
