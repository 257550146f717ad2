import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Hex digits of a workspace id. */
const ID_LENGTH = 16;
/** Ids remembered; bounded, as with --open-keys every well-formed token is a key. */
const REMEMBERED = 4096;

/**
 * The one rule for a workspace id, shared by every backend: the first 16 hex
 * digits of HMAC-SHA256 of the API key under the sandbox's secret. Without
 * the secret nobody can tell from an id whether a guessed key is the right
 * one. Returns the ids function, remembering recent keys' ids.
 */
export function workspaceIdsOf(secret: Uint8Array): (key: string) => string {
  const ids = new Map<string, string>();
  return (key) => {
    let id = ids.get(key);
    if (id === undefined) {
      if (ids.size >= REMEMBERED) ids.clear();
      // Hex of the digest's first bytes, not a slice of its whole hex: V8 would keep all 64 digits behind a slice.
      // @noble/hashes rather than node:crypto: the engine runs in a browser too (the same digest).
      id = bytesToHex(hmac(sha256, secret, utf8ToBytes(key)).subarray(0, ID_LENGTH / 2));
      ids.set(key, id);
    }
    return id;
  };
}
