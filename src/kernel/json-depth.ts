import { ApiError } from './errors.js';

/**
 * Deepest nesting of arrays and objects accepted in a JSON body, on `/v1`
 * and the control plane (docs/limits.md). A NewPet is one level deep, a
 * fixture set three. Without a limit, a body within the size limit could
 * nest 50,000 levels: parsed fine, but every later recursive walk of it
 * (the journal serializing what was sent) would overflow the stack.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];

/**
 * Refuses (400) JSON bytes nested deeper than `max` arrays and objects, before
 * they are parsed: one pass over the bytes, skipping strings. Called by
 * `parseJsonBody` (core/json-body.ts) on every JSON body the sandbox reads.
 */
export function checkJsonDepth(raw: Uint8Array, max = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as number;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) throw ApiError.of('invalid_request', `Request body is nested deeper than ${max} levels of arrays and objects.`);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth -= 1;
  }
}
