import type { CheckpointInfo, CheckpointInput, CheckpointLimits, CheckpointStore } from '../backend.js';
import { CHECKPOINT_NAME, headLine, refusals, saveBudget } from '../checkpoint-rules.js';
import { KeyedSerial } from '../keyed-serial.js';

interface Saved {
  info: CheckpointInfo;
  text: string;
}

const utf8 = new TextEncoder();
const bytesOf = (text: string): number => utf8.encode(text).length;

/**
 * The memory store's checkpoints: each workspace's export text by name, kept
 * for the life of the process. Sizes are counted as the file store counts
 * them (head line and text), so the same limits hold with the same words.
 * Saves and deletes of one workspace run one at a time.
 */
export class MemoryCheckpoints implements CheckpointStore {
  private readonly saved = new Map<string, Map<string, Saved>>();
  private readonly serial = new KeyedSerial();

  constructor(readonly limits: CheckpointLimits) {}

  save(workspace: string, name: string, input: CheckpointInput, overwrite: boolean): Promise<CheckpointInfo> {
    if (!CHECKPOINT_NAME.test(name)) return Promise.reject(refusals.name(name));
    return this.serial.run(workspace, async () => {
      const held = this.saved.get(workspace) ?? new Map<string, Saved>();
      const budget = saveBudget(
        [...held.values()].map((c) => c.info),
        name,
        overwrite,
        this.limits,
      );
      const savedAt = new Date().toISOString();
      let bytes = bytesOf(headLine({ checkpoint: 1, savedAt, count: input.count, nextId: input.nextId }));
      let text = '';
      for await (const piece of input.text) {
        bytes += bytesOf(piece);
        if (bytes > budget) throw refusals.bytes(budget);
        text += piece;
      }
      const info = { name, savedAt, count: input.count, nextId: input.nextId, bytes };
      this.saved.set(workspace, held.set(name, { info, text }));
      return info;
    });
  }

  list(workspace: string): Promise<CheckpointInfo[]> {
    const held = [...(this.saved.get(workspace)?.values() ?? [])];
    // In code unit order, as the other stores list them.
    return Promise.resolve(
      held
        .map((c) => c.info)
        .sort((a, b) =>
          a.name < b.name ? -1
          : a.name > b.name ? 1
          : 0,
        ),
    );
  }

  read(workspace: string, name: string): Promise<string | undefined> {
    if (!CHECKPOINT_NAME.test(name)) return Promise.reject(refusals.name(name));
    return Promise.resolve(this.saved.get(workspace)?.get(name)?.text);
  }

  delete(workspace: string, name: string): Promise<boolean> {
    if (!CHECKPOINT_NAME.test(name)) return Promise.reject(refusals.name(name));
    return this.serial.run(workspace, () => Promise.resolve(this.saved.get(workspace)?.delete(name) ?? false));
  }

  /** Forgets every checkpoint of a workspace (an open key's, removed). */
  drop(workspace: string): void {
    this.saved.delete(workspace);
  }
}
