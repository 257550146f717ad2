/**
 * The check that parallel test workers never shared data, read from the
 * sandbox's journals: every pet a worker creates is named after it (its
 * tag, e.g. `r1-w3-pets-02-0`), so each workspace's journal must show the
 * tag of the one worker that owns its key and no other, in what was sent
 * (a create's body) and in what was answered (a list, a create).
 */
import { createControlClient } from '../../src/control/client.js';
import type { JournalEntry } from '../../src/store/journal/types.js';
import { workspaceOf } from '../../src/library/workspace.js';

/** What one test file of a worker recorded: its worker's key and tag. */
export interface WorkerRecord {
  /** The sandbox's origin the worker was given. */
  url: string;
  key: string;
  tag: string;
  file: string;
}

/** The tags of the pets an entry's request or answer names. */
function tagsIn(entry: JournalEntry): string[] {
  const text = JSON.stringify([entry.requestBody, entry.responseBody]);
  return [...text.matchAll(/"name":"(r\d+-w\d+)-/g)].map((m) => m[1] as string);
}

/** Each key's journal, newest last, read with the admin token over HTTP. */
export async function journalsOf(origin: string, adminToken: string, keys: Iterable<string>): Promise<Map<string, JournalEntry[]>> {
  const client = createControlClient({ origin, adminToken });
  const journals = new Map<string, JournalEntry[]>();
  for (const key of keys) journals.set(key, (await workspaceOf(client, key).journal.read()).entries as JournalEntry[]);
  return journals;
}

/**
 * Every place where one worker's data showed in another's workspace, read
 * from the journals alone: an entry in a key's journal that names a pet of
 * another tag than the key's owner's (the tag its files recorded), or a
 * journal without a pet of its owner (nothing was read: the check would
 * prove nothing). Empty when the workers were isolated.
 */
export function crossWorkerLeaks(records: WorkerRecord[], journals: Map<string, JournalEntry[]>): string[] {
  const leaks: string[] = [];
  for (const [key, owner] of new Map(records.map((record) => [record.key, record.tag]))) {
    const entries = journals.get(key) ?? [];
    if (!entries.some((entry) => tagsIn(entry).includes(owner))) leaks.push(`${key}'s journal shows none of ${owner}'s pets`);
    for (const entry of entries) {
      const foreign = [...new Set(tagsIn(entry).filter((tag) => tag !== owner))];
      if (foreign.length > 0) leaks.push(`${key} (${owner})'s journal: ${entry.method} ${entry.path} names pets of ${foreign.join(', ')}`);
    }
  }
  return leaks;
}
