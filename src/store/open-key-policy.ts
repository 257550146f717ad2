/**
 * Which open key's workspace goes, and when: the rule the file and memory
 * stores share (`--open-key-workspaces`, `--open-key-ttl`). How a workspace
 * goes (its files removed, or its memory dropped) is each store's own.
 */
import type { Config } from '../config/load.js';
import type { Logger } from '../kernel/logger.js';

/** Why a workspace was removed: beyond `--open-key-workspaces`, or unused for `--open-key-ttl`. */
export type RemovalReason = 'cap' | 'ttl';

/** How many workspaces of keys that are not configured are kept, and for how long unused. */
export interface OpenKeyPolicy {
  /** Most kept (`--open-key-workspaces`). */
  max: number;
  /** Removed once unused for this long (`--open-key-ttl`), in ms. */
  ttlMs: number;
  /** Hears of each removal once it is done (metrics, log, journal, faults). */
  onRemoved?: (id: string, reason: RemovalReason) => void;
  /** Hears of a removal that failed (its files stay until the next start tries again). */
  warn?: (message: string) => void;
}

/**
 * Whether a workspace last used at `lastUsed` is due for removal, and why:
 * unused past the TTL, else beyond the cap while `kept` are kept (and
 * `room` more are about to be made).
 */
export function removalReason(
  policy: Pick<OpenKeyPolicy, 'max' | 'ttlMs'>,
  lastUsed: number,
  kept: number,
  room: number,
  now: number,
): RemovalReason | undefined {
  if (lastUsed < now - policy.ttlMs) return 'ttl';
  return kept + room > policy.max ? 'cap' : undefined;
}

/**
 * Open keys' workspaces by id, least recently used first. `due` offers
 * those to remove, oldest first, until the first that is not due; the
 * caller removes (`delete`) those no request holds and skips the others.
 */
export class OpenKeyUse<T extends { lastUsed: number }> {
  private readonly items = new Map<string, T>();

  /** Workspaces kept now. */
  get size(): number {
    return this.items.size;
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  /** `id` becomes the most recently used, as `item`. */
  use(id: string, item: T): void {
    this.items.delete(id);
    this.items.set(id, item);
  }

  delete(id: string): boolean {
    return this.items.delete(id);
  }

  /**
   * Those due for removal at `now`, least recently used first, with why;
   * read afresh at each step, so removals (and uses) made between steps count.
   */
  *due(policy: Pick<OpenKeyPolicy, 'max' | 'ttlMs'>, now: number, room = 0): Generator<[string, T, RemovalReason]> {
    for (const id of [...this.items.keys()]) {
      const item = this.items.get(id);
      if (!item) continue;
      const reason = removalReason(policy, item.lastUsed, this.items.size, room, now);
      if (!reason) return;
      yield [id, item, reason];
    }
  }
}

/**
 * The policy that `--open-key-workspaces` and `--open-key-ttl` set: each
 * removal runs `forget` (the store's own clean-up: journal, faults, ...)
 * and is logged with its reason; `removed` says what went ("with its
 * files", "from memory").
 */
export function openKeyPolicyOf(
  config: Pick<Config, 'apiKeys' | 'openKeyWorkspaces' | 'openKeyTtlMs'>,
  logger: Logger,
  removed: string,
  forget: (id: string) => void,
): OpenKeyPolicy & { configured: readonly string[] } {
  const why = { cap: `beyond --open-key-workspaces ${config.openKeyWorkspaces}`, ttl: `unused for --open-key-ttl ${config.openKeyTtlMs / 1000} s` };
  return {
    configured: config.apiKeys,
    max: config.openKeyWorkspaces,
    ttlMs: config.openKeyTtlMs,
    onRemoved: (id, reason) => {
      forget(id);
      logger.info(`Removed the workspace ${id} of an open key ${removed} (${why[reason]})`, { workspace: id, reason });
    },
    warn: (message) => logger.warn(message),
  };
}
