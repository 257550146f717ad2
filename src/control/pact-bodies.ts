/**
 * Response bodies of a recorded pact and their matching rules (Pact
 * specification V4). Values that are data, which another correct provider
 * would hold differently (ids, names, categories, how many pets a list
 * has), are matched by type; what the request decides (the id asked for,
 * the status filtered by, a created pet's fields) stays exact.
 */
import { parseJson } from '../kernel/json.js';
import type { JournalEntry } from '../store/journal/types.js';
import { PET_STATUSES } from './provider-states.js';

export type Matcher = { match: 'type'; min?: number; max?: number } | { match: 'integer' } | { match: 'regex'; regex: string } | { match: 'equality' };

/** Matchers by JSON path (`$.name`, `$[*].id`). */
export type Rules = Record<string, { combine: 'AND'; matchers: Matcher[] }>;

export interface PactBody {
  content: unknown;
  contentType: 'application/json';
  encoded: false;
}

/** A body as a pact holds it, with the rules its values are matched by. */
export interface ResponseBody {
  body: PactBody;
  rules: Rules;
}

const STATUS_REGEX = `^(${PET_STATUSES.join('|')})$`;

const one = (matcher: Matcher) => ({ combine: 'AND' as const, matchers: [matcher] });
const json = (content: unknown): PactBody => ({ content, contentType: 'application/json', encoded: false });
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a journaled body is the marker of a body not shown as JSON (cut, or not JSON at all). */
export function isBodyText(v: unknown): v is { truncated: boolean; size: number; text: string } {
  return isObject(v) && typeof v.truncated === 'boolean' && typeof v.text === 'string' && typeof v.size === 'number';
}

/**
 * The first element of a JSON array whose text was cut (a long list in the
 * journal): the text up to where that element closes, parsed. Undefined when
 * the text does not hold a whole first element.
 */
export function firstElement(text: string): unknown {
  const start = text.indexOf('[') + 1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return parseJson(text.slice(start, i + 1));
      if (depth < 0) return undefined;
    }
  }
  return undefined;
}

/** An Error body: its code and message are the provider's words, its status must equal the HTTP status. */
function errorBody(content: unknown): ResponseBody {
  return { body: json(content), rules: { '$.code': one({ match: 'type' }), '$.message': one({ match: 'type' }) } };
}

/** `getPet` 200: the pet asked for (its id exact), whatever its other values. */
function petBody(content: unknown): ResponseBody {
  return {
    body: json(content),
    rules: { '$.name': one({ match: 'type' }), '$.categoryId': one({ match: 'integer' }), '$.status': one({ match: 'regex', regex: STATUS_REGEX }) },
  };
}

/**
 * `listPets` 200 with pets: at least one and at most `limit`, each like the
 * first. Filtered by a status, every pet must have it; otherwise the example
 * leaves `status` out, because a pet may have none.
 */
function listBody(first: Record<string, unknown>, query: JournalEntry['query']): ResponseBody {
  const limit = Number(query.limit);
  const filtered = typeof query.status === 'string' && (PET_STATUSES as readonly string[]).includes(query.status);
  const item = { ...first };
  if (!filtered) delete item.status;
  const rules: Rules = {
    $: one({ match: 'type', min: 1, ...(Number.isInteger(limit) && limit > 0 ? { max: limit } : {}) }),
    '$[*].id': one({ match: 'integer' }),
    '$[*].name': one({ match: 'type' }),
    '$[*].categoryId': one({ match: 'integer' }),
  };
  if (filtered) rules['$[*].status'] = one({ match: 'equality' });
  return { body: json([item]), rules };
}

/** The response body of a journaled exchange as a pact expects it, or undefined when it cannot be recorded. */
export function responseBody(entry: JournalEntry): ResponseBody | undefined {
  const value = entry.responseBody;
  // Only a list can be recorded from a cut text (its first pet); any other body must be whole.
  if (isBodyText(value) && !(entry.operationId === 'listPets' && entry.status === 200)) return undefined;
  if (entry.status >= 400) return isObject(value) ? errorBody(value) : undefined;
  if (entry.operationId === 'listPets') {
    const first =
      isBodyText(value) ?
        value.truncated ?
          firstElement(value.text)
        : undefined
      : Array.isArray(value) ? value[0]
      : undefined;
    if (Array.isArray(value) && value.length === 0) return { body: json([]), rules: {} };
    return isObject(first) ? listBody(first, entry.query) : undefined;
  }
  if (!isObject(value)) return undefined;
  // createPet 201: the fields sent come back as sent; only the id is the provider's.
  if (entry.operationId === 'createPet') return { body: json(value), rules: { '$.id': one({ match: 'integer' }) } };
  return petBody(value);
}
