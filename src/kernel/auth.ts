import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { credentialsOf } from '../openapi/authorization.js';
import type { EngineHeaders } from './types.js';
import { ApiError } from './errors.js';

// @noble/hashes rather than node:crypto: the engine runs in a browser too. Only a token not seen before is hashed.
const digest = (s: string): Uint8Array => sha256(utf8ToBytes(s));

/** Whether two digests of equal length are equal, in a time that depends on their length only. */
function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/**
 * Matches a presented token against the accepted ones in constant time:
 * both sides are hashed to equal length and every key is compared, so
 * neither the position of a match nor a common prefix shows in the timing.
 *
 * The answer for a token is remembered (hashing was a large part of the
 * cost of a request). A Map lookup hashes the whole token before comparing,
 * so a hit or miss tells only whether that exact token was presented
 * before, never how much of it matches a key.
 */
export function createKeyMatcher(keys: readonly string[]): (token: string) => boolean {
  const known = keys.map(digest);
  const answers = new Map<string, boolean>();
  return (token) => {
    const remembered = answers.get(token);
    if (remembered !== undefined) return remembered;
    const presented = digest(token);
    let found = false;
    for (const k of known) found = sameDigest(k, presented) || found;
    // Bounded: a client sending ever new tokens only ever costs the hashing.
    if (answers.size >= 1024) answers.clear();
    answers.set(token, found);
    return found;
  };
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), if any. */
export function bearerToken(headers: EngineHeaders): string | undefined {
  const value = headers.authorization;
  // Node keeps one Authorization header and a Headers object joins repeats: a list comes from no way in, and names no token.
  if (!value || typeof value !== 'string') return undefined;
  // Clients send the same header again and again: it is read once (bounded, like the key matcher's answers).
  if (tokens.has(value)) return tokens.get(value);
  const token = credentialsOf(value, 'Bearer');
  if (tokens.size >= 1024) tokens.clear();
  tokens.set(value, token);
  return token;
}

const tokens = new Map<string, string | undefined>();

export function unauthorized(message: string): ApiError {
  return ApiError.of('unauthorized', message, { 'WWW-Authenticate': 'Bearer' });
}

/** The 401 the interface prescribes for a missing or unknown key, in every mode. */
export function checkApiKey(headers: EngineHeaders, accepts: (token: string) => boolean): string {
  const token = bearerToken(headers);
  if (token === undefined) {
    throw unauthorized(
      headers.authorization ?
        'Malformed Authorization header: send Authorization: Bearer <API_KEY>.'
      : 'Missing API key: send Authorization: Bearer <API_KEY>.',
    );
  }
  if (!accepts(token)) throw unauthorized('Invalid API key.');
  return token;
}

/** A masked token shows at most this many of its first characters, and never more than a quarter of it. */
const SHOWN_CHARACTERS = 4;

/**
 * The credential a refused request presented, for the admin's journal of
 * unauthenticated requests, never whole: enough to tell a missing header,
 * another scheme and which key a client sends (its first characters and
 * length) without keeping a key that may be a real one mistyped.
 */
export function maskedCredential(authorization: string | undefined): string {
  if (authorization === undefined || authorization === '') return 'none';
  const [scheme = '', token = ''] = authorization.trim().split(/ +/, 2);
  if (!/^bearer$/i.test(scheme)) return /^[A-Za-z][A-Za-z0-9-]{0,19}$/.test(scheme) && token !== '' ? `${scheme} …` : 'malformed …';
  if (token === '') return 'Bearer (empty)';
  const shown = token.slice(0, Math.min(SHOWN_CHARACTERS, Math.floor(token.length / 4)));
  return `Bearer ${shown}…(${token.length} characters)`;
}
