import { ApiError } from '../kernel/errors.js';

/**
 * The live journal tails one client may hold open at once, on every way in:
 * the Node server holds each on a connection of its own, which its
 * per-client cap (`--max-connections-per-client`) bounds already; the
 * Connect middleware in a team's server counts them by peer address; the
 * in-process ways (the library's `fetch`, its fetch handler, MSW, `handle`)
 * count the whole process as one client. One over the cap is refused as the
 * server refuses a connection over its cap: 503 `service_unavailable`.
 */
export interface StreamSlots {
  /** Takes a slot of `client` (undefined: this process), and returns how to give it back; throws the 503 when none is left. */
  take(client: string | undefined): () => void;
}

/** The name the in-process ways share: no peer address is ever empty. */
const IN_PROCESS = '';

/** Slots of `cap` streams per client, counted per client while any is open. */
export function createStreamSlots(cap: number): StreamSlots {
  const open = new Map<string, number>();
  return {
    take(client = IN_PROCESS) {
      const count = open.get(client) ?? 0;
      if (count >= cap) {
        const who = client === IN_PROCESS ? 'this process' : 'this client address';
        throw ApiError.of('service_unavailable', `Too many journal streams from ${who}: at most ${cap} at once; close some first.`);
      }
      open.set(client, count + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const left = (open.get(client) ?? 1) - 1;
        if (left > 0) open.set(client, left);
        else open.delete(client);
      };
    },
  };
}
