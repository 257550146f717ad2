/**
 * The journal across a restart of the server process on the same data
 * file: the file store keeps its journal in memory only, so a restart is
 * where its retention ends; a stream resumed after it is told so by a `gap`
 * event, then gets every entry since the restart. The library's
 * `journal.follow()` does that by itself: it reconnects, through failed
 * attempts, and never yields an entry twice.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import type { ServerSentEvent } from '../../src/control/sse.js';
import { workspaceOf } from '../../src/library/workspace.js';
import { onMemory, onPostgres, tempDir } from '../support/harness.js';
import { entriesOf, limitOf, openStream } from '../support/journal-stream.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const ADMIN = 'sandbox-admin';
const KEY = 'sandbox-key';
/** An origin no server has: the tests' fetch sends its requests to the server of the moment. */
const STABLE = 'http://sandbox.test';

const get = async (server: ChildSandbox, limit: number) =>
  expect((await fetch(`${server.baseUrl}/pets?limit=${limit}`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);

/** Waits until `done`, within a bound. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!done()) throw new Error(`Still waiting for ${what}`);
}

// The processes run on the data file; the other backends' restarts are those of their own suites.
describe.skipIf(onPostgres || onMemory)('the journal across a restart of the server process', { timeout: 120_000 }, () => {
  it('follow() reconnects by itself after the restart, resumes after the last entry it saw, says what was lost, and yields nothing twice', async () => {
    const data = join(tempDir(), 'db.json');
    let server: ChildSandbox | undefined = await spawnSandbox(data);
    let current = server.origin;
    const attempts: string[] = [];
    const client = createControlClient({
      origin: STABLE,
      adminToken: ADMIN,
      fetch: (url, init) => {
        attempts.push(String(url));
        return fetch(String(url).replace(STABLE, current), init);
      },
    });
    const stop = new AbortController();
    const events: ServerSentEvent[] = [];
    const following = (async () => {
      for await (const event of workspaceOf(client, KEY).journal.follow({ signal: stop.signal })) events.push(event);
    })();
    try {
      await until(() => events.length === 1, 'the open event');
      await get(server, 1);
      await get(server, 2);
      await until(() => events.length === 3, 'two entries');
      const before = entriesOf(events);
      expect(before.map(limitOf)).toEqual(['1', '2']);

      // Down: the stream ends, and each attempt to open it again fails until the new process is reached.
      await stopSandbox(server);
      const tried = attempts.length;
      await until(() => attempts.length >= tried + 2, 'failed attempts');
      server = await spawnSandbox(data);
      await get(server, 3);
      await get(server, 4);
      // The requests above were answered before follow() reaches the new process: it gets them replayed.
      current = server.origin;
      await until(() => entriesOf(events).length === 4, 'the entries since the restart');
      await get(server, 5);
      await until(() => entriesOf(events).length === 5, 'a live entry');

      expect(events.map((e) => e.event)).toEqual(['open', 'entry', 'entry', 'gap', 'entry', 'entry', 'entry']);
      const entries = entriesOf(events);
      expect(entries.map(limitOf)).toEqual(['1', '2', '3', '4', '5']);
      const ids = entries.map((e) => Number(e.id));
      expect(new Set(ids).size).toBe(5);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(JSON.parse(events[3]?.data ?? '')).toEqual({ lastEventId: ids[1], firstId: ids[2] });

      // The same resume asked by any client with the header: what the new process keeps after that id, after the gap.
      const resumed = await openStream({ origin: server.origin, adminToken: ADMIN, lastEventId: String(ids[1]) });
      const again = await resumed.until((e) => entriesOf(e).length === 3);
      resumed.close();
      expect(again.map((e) => e.event)).toEqual(['open', 'gap', 'entry', 'entry', 'entry']);
      expect(entriesOf(again).map((e) => Number(e.id))).toEqual(ids.slice(2));
    } finally {
      stop.abort();
      await following;
      await killSandbox(server);
    }
  });
});
