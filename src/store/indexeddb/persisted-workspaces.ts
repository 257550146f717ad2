import type { MaybePromise, WorkspaceData, WorkspaceStore } from '../backend.js';
import type { MemoryWorkspaces } from '../memory/workspaces.js';
import type { MemoryWorkspace } from '../memory/workspace.js';
import type { WriteListener } from '../write-times.js';
import { openDatabase, requested, transact, type IdbDatabase } from './idb.js';
import { PersistedWorkspace } from './persisted-workspace.js';

/** What one tab tells the others after a write: the workspace and the version it stored. */
interface Written {
  id: string;
  version: number;
}

/** The part of a BroadcastChannel used here (typed without the DOM's types). */
interface Channel {
  postMessage(message: Written): void;
  close(): void;
  onmessage: ((event: { data: Written }) => void) | null;
}

/** A sandbox's storage in the browser: its database, and the secret its workspace ids are keyed with (kept there, so ids outlive a reload). */
export interface BrowserStorage {
  readonly name: string;
  readonly db: IdbDatabase;
  readonly secret: Uint8Array;
}

/**
 * Opens the database `name`, with the secret its workspace ids are keyed
 * with (made and stored on first use). Rejects with an Error saying why when
 * IndexedDB is missing or refuses.
 */
export async function openBrowserStorage(name: string): Promise<BrowserStorage> {
  const db = await openDatabase(name);
  try {
    const secret = await transact(db, 'Could not read the sandbox secret', async (tx) => {
      const meta = tx.objectStore('meta');
      const stored = await requested(meta.get('secret'), 'Could not read the sandbox secret');
      if (stored instanceof Uint8Array) return stored;
      const made = crypto.getRandomValues(new Uint8Array(32));
      meta.put(made, 'secret');
      return made;
    });
    return { name, db, secret };
  } catch (error) {
    db.close();
    throw new Error(`IndexedDB database '${name}' could not be read (${(error as Error).message})`, { cause: error });
  }
}

/**
 * The memory store's workspaces, each kept in IndexedDB too
 * (`PersistedWorkspace`): a workspace's copy is read from storage before
 * its first use, and again after another tab of the origin wrote it
 * (told over a BroadcastChannel of the database's name). A copy that may
 * be behind is not handed out at once (`peek`), so a read waits for it.
 */
export class PersistedWorkspaces implements WorkspaceStore {
  private readonly copies = new Map<string, PersistedWorkspace>();
  private readonly channel: Channel | undefined;
  readonly idOf: (key: string) => string;

  constructor(
    private readonly inner: MemoryWorkspaces,
    private readonly storage: BrowserStorage,
  ) {
    this.idOf = inner.idOf;
    const Broadcast = (globalThis as unknown as { BroadcastChannel?: new (name: string) => Channel }).BroadcastChannel;
    // Without one, another tab's write is still never overwritten (the version check); it is seen at this tab's next write.
    this.channel = Broadcast && new Broadcast(storage.name);
    if (this.channel) this.channel.onmessage = ({ data }) => this.copies.get(data.id)?.heard(data.version);
  }

  use<T>(key: string, work: (workspace: WorkspaceData) => MaybePromise<T>): Promise<T> {
    const id = this.idOf(key);
    return this.inner.use(key, async (memory) => {
      const copy = this.copyOf(id, memory);
      await copy.refresh();
      return work(copy);
    });
  }

  peek(key: string): WorkspaceData | undefined {
    const memory = this.inner.peek(key);
    const copy = memory && this.copyOf(this.idOf(key), memory);
    return copy?.stale ? undefined : copy;
  }

  openIds(): string[] {
    return this.inner.openIds();
  }

  openCount(): number {
    return this.inner.openCount();
  }

  removedCount(): number {
    return this.inner.removedCount();
  }

  listen(listener: WriteListener): void {
    this.inner.listen(listener);
  }

  async close(): Promise<void> {
    this.channel?.close();
    await this.inner.close();
    this.storage.db.close();
  }

  /** The persisted copy of a memory workspace (a new one if the memory store made that workspace anew). */
  private copyOf(id: string, memory: MemoryWorkspace): PersistedWorkspace {
    const known = this.copies.get(id);
    if (known?.memory === memory) return known;
    const copy = new PersistedWorkspace(memory, this.storage.db, id, (written, version) => this.channel?.postMessage({ id: written, version }));
    this.copies.set(id, copy);
    return copy;
  }
}
