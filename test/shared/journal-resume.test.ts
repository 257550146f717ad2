/**
 * A journal stream followed on instance A and resumed on instance B of one
 * PostgreSQL database: an entry's id is its row's seq, the same whichever
 * instance sends it, so B replays exactly what the client missed.
 */
import { describe, expect, it } from 'vitest';
import { entriesOf, limitOf, openStream, type OpenedStream } from '../support/journal-stream.js';
import type { ServerSentEvent } from '../../src/control/sse.js';
import { twoInstances, type Instance } from '../support/shared-sandboxes.js';

const two = twoInstances(['--count', '2']);
const streamOf = (instance: Instance, lastEventId?: string): Promise<OpenedStream> =>
  openStream({ origin: instance.child.origin, adminToken: 'sandbox-admin', ...(lastEventId === undefined ? {} : { lastEventId }) });
const get = async (instance: Instance, limit: number) => expect((await instance.call(`/v1/pets?limit=${limit}`)).status).toBe(200);

describe('a journal stream resumed on another instance', { timeout: 120_000 }, () => {
  it('follows on A, resumes on B after the last id seen on A: exactly the missing entries, with the ids A gives them too', async () => {
    const onA = await streamOf(two.a);
    await onA.next();
    // A's own requests, and B's, which A hears of through the database.
    await get(two.a, 1);
    await get(two.b, 2);
    const seenOnA = entriesOf(await onA.until((e) => entriesOf(e).length === 2));
    expect(seenOnA.map(limitOf).sort()).toEqual(['1', '2']);
    const last = seenOnA.map((e) => Number(e.id)).sort((x, y) => x - y)[1] as number;

    // Still on A while the client is away, to see the ids A gives the entries it misses.
    const watcher = await streamOf(two.a, String(last));
    onA.close();
    const watched: ServerSentEvent[] = [];
    for (const [instance, limit] of [
      [two.a, 3],
      [two.b, 4],
      [two.a, 5],
    ] as const) {
      await get(instance, limit);
      // Its entry is in the journal before the next request: the entries' seqs, so the replay's order, are the requests' order.
      watched.push(...entriesOf(await watcher.until((e) => entriesOf(e).length === 1)));
    }
    const onB = await streamOf(two.b, String(last));
    const resumed = await onB.until((e) => entriesOf(e).length === 3);
    expect(resumed.map((e) => e.event)).toEqual(['open', 'entry', 'entry', 'entry']);
    expect(entriesOf(resumed).map(limitOf)).toEqual(['3', '4', '5']);
    watcher.close();
    const idsOf = (list: typeof watched) => Object.fromEntries(list.map((e) => [limitOf(e), e.id]));
    expect(idsOf(entriesOf(resumed))).toEqual(idsOf(watched));
    expect(entriesOf(resumed).every((e) => Number(e.id) > last)).toBe(true);

    // Then B's stream goes on live, with requests served by either instance, none twice.
    await get(two.a, 6);
    await get(two.b, 7);
    const live = entriesOf(await onB.until((e) => entriesOf(e).length === 2));
    onB.close();
    expect(live.map(limitOf).sort()).toEqual(['6', '7']);
    expect(live.every((e) => Number(e.id) > Number(entriesOf(resumed)[2]?.id))).toBe(true);
  });
});
