import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createFile } from './durable-entries.js';
import { workspaceIdsOf } from '../workspace-id.js';

const SECRET_BYTES = 32;

/**
 * Workspace ids: a keyed hash (HMAC-SHA256) of the API key, with a secret
 * kept beside the data file (`<data>.secret`, mode 0600). An id names a
 * workspace's file and its journal, and shows in the control plane and
 * logs; without the secret, nobody can tell from an id (or a file name)
 * whether a guessed key is the right one, as a bare hash would let them.
 */
export class WorkspaceIds {
  private readonly idOf: (key: string) => string;
  private persisted: boolean;
  private persisting: Promise<void> | undefined;

  private constructor(
    private readonly secretFile: string,
    private readonly secret: Buffer,
    persisted: boolean,
  ) {
    this.persisted = persisted;
    this.idOf = workspaceIdsOf(secret);
  }

  /**
   * Reads the secret of `dataFile`, or makes one, kept in memory until
   * `persist` writes it: once the data file is accepted, or before the first
   * file named by an id. A start refused for its data file leaves no secret.
   */
  static async load(dataFile: string): Promise<WorkspaceIds> {
    const secretFile = `${dataFile}.secret`;
    const existing = await readSecret(secretFile);
    if (existing) return new WorkspaceIds(secretFile, existing, true);
    return new WorkspaceIds(secretFile, randomBytes(SECRET_BYTES), false);
  }

  /** The id of a key: 16 hex digits (`workspaceIdsOf`). */
  of(key: string): string {
    return this.idOf(key);
  }

  /** The ids of `keys`. */
  ofKeys(keys: readonly string[]): ReadonlySet<string> {
    return new Set(keys.map((key) => this.of(key)));
  }

  /** Writes the secret if it is only in memory: before any file is named by an id. */
  async persist(): Promise<void> {
    if (this.persisted) return;
    // One write for the workspaces opening together; never seen half written, and durable with its folder:
    // a secret lost in a power cut would orphan every workspace file.
    this.persisting ??= createFile(this.secretFile, [`${this.secret.toString('hex')}\n`], 0o600).finally(() => (this.persisting = undefined));
    await this.persisting;
    this.persisted = true;
  }
}

async function readSecret(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/.test(hex))
    throw new Error(`${file} is not a workspace secret (64 hex digits). Move it away to make a new one; workspaces of other keys then start fresh.`);
  return Buffer.from(hex, 'hex');
}
