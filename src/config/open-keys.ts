/** How long, and how many, workspaces of keys that are not configured are kept under `--open-keys`. */
export interface OpenKeysConfig {
  /** With `openKeys`: most workspaces of keys that are not configured kept on disk; the least recently used go first. Default 1000. */
  readonly openKeyWorkspaces: number;
  /** With `openKeys`: milliseconds after which an unused workspace of a key that is not configured is removed. Default 1 day. */
  readonly openKeyTtlMs: number;
}

/** The options of OpenKeysConfig: flag, environment variable, default, help. */
export const OPEN_KEY_OPTIONS = {
  'open-key-workspaces': {
    env: 'PETSTORE_OPEN_KEY_WORKSPACES',
    default: '1000',
    help: 'with --open-keys, workspaces of keys not configured kept, on disk or in the database (least recently used removed)',
  },
  'open-key-ttl': { env: 'PETSTORE_OPEN_KEY_TTL', default: '86400', help: 'with --open-keys, seconds before an unused workspace of such a key is removed' },
} as const;

/** The open-key options read. */
export function openKeysConfigOf(
  get: (name: keyof typeof OPEN_KEY_OPTIONS) => string,
  integer: (name: string, raw: string, min: number, max: number) => number,
): OpenKeysConfig {
  return {
    openKeyWorkspaces: integer('open-key-workspaces', get('open-key-workspaces'), 1, 1_000_000),
    openKeyTtlMs: integer('open-key-ttl', get('open-key-ttl'), 1, 365 * 24 * 3600) * 1000,
  };
}
