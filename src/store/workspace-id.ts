import { createHmac } from 'node:crypto';

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
      id = createHmac('sha256', secret)
        .update(key)
        .digest()
        .toString('hex', 0, ID_LENGTH / 2);
      ids.set(key, id);
    }
    return id;
  };
}
