/**
 * A journal stream that resumes: each entry event carries its id, and a
 * client that comes back with `Last-Event-ID` (or `lastEventId`) gets every
 * entry after it, then the new ones, exactly once; a `gap` event says when
 * the journal dropped some first; an id that is not one is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { entriesOf, limitOf, openStream, type StreamTarget } from '../support/journal-stream.js';
import { expectControlValid } from '../support/spec-check.js';

let sb: TestSandbox;
let small: TestSandbox;
beforeAll(async () => {
  [sb, small] = await Promise.all([startTestSandbox(['--api-keys', 'key-a,key-b']), startTestSandbox(['--api-keys', 'key-a', '--journal-size', '2'])]);
});
afterAll(() => Promise.all([sb.stop(), small.stop()]));

const target = (s: TestSandbox, more: Partial<StreamTarget> = {}): StreamTarget => ({
  origin: s.origin,
  adminToken: s.config.adminToken,
  key: 'key-a',
  ...more,
});
const get = async (s: TestSandbox, limit: number, key = 'key-a') => expect((await s.call(`/pets?limit=${limit}`, { key })).status).toBe(200);

describe('a journal stream that resumes', { timeout: 60_000 }, () => {
  it('gets, after a dropped connection, exactly the entries it missed, then the new ones, each with its id', async () => {
    const first = await openStream(target(sb));
    expect(first.status).toBe(200);
    expect(await first.next()).toMatchObject({ event: 'open' });
    for (const limit of [1, 2, 3]) await get(sb, limit);
    const seen = await first.until((e) => e.length === 3);
    expect(seen.map(limitOf)).toEqual(['1', '2', '3']);
    const ids = seen.map((e) => Number(e.id));
    expect(ids.every((id, i) => Number.isSafeInteger(id) && (i === 0 || id > (ids[i - 1] as number)))).toBe(true);
    first.close();

    await get(sb, 4);
    await get(sb, 5, 'key-b'); // another workspace: not in this journal
    await get(sb, 6);
    const resumed = await openStream(target(sb, { lastEventId: String(ids[2]) }));
    expect(await resumed.next()).toEqual({ event: 'open', data: JSON.stringify({ workspace: sb.workspaces.idOf('key-a'), backlog: 2 }) });
    const replayed = await resumed.until((e) => e.length === 2);
    expect(replayed.map((e) => [e.event, limitOf(e)])).toEqual([
      ['entry', '4'],
      ['entry', '6'],
    ]);
    await get(sb, 7);
    const live = await resumed.next();
    expect(limitOf(live)).toBe('7');
    expect(Number(live.id)).toBeGreaterThan(Number(replayed[1]?.id));
    resumed.close();

    // The query parameter, for a client that cannot set the header; the header wins over it.
    const byQuery = await openStream(target(sb, { search: `?lastEventId=${ids[2]}` }));
    expect(entriesOf(await byQuery.until((e) => entriesOf(e).length === 3)).map(limitOf)).toEqual(['4', '6', '7']);
    byQuery.close();
    const both = await openStream(target(sb, { search: `?lastEventId=${ids[0]}`, lastEventId: replayed[1]?.id }));
    expect(entriesOf(await both.until((e) => entriesOf(e).length === 1)).map(limitOf)).toEqual(['7']);
    both.close();
  });

  it('says with a gap event that entries after the id were dropped, then sends those still kept', async () => {
    const first = await openStream(target(small));
    await first.next();
    await get(small, 1);
    const [one] = await first.until((e) => e.length === 1);
    first.close();
    for (const limit of [2, 3, 4]) await get(small, limit);
    const resumed = await openStream(target(small, { lastEventId: one?.id }));
    const events = await resumed.until((e) => entriesOf(e).length === 2);
    resumed.close();
    expect(events.map((e) => e.event)).toEqual(['open', 'gap', 'entry', 'entry']);
    expect(entriesOf(events).map(limitOf)).toEqual(['3', '4']);
    expect(JSON.parse(events[1]?.data ?? '')).toEqual({ lastEventId: Number(one?.id), firstId: Number(events[2]?.id) });
    expect(events[1]?.id).toBeUndefined();

    // Resumed from the newest entry: nothing was dropped after it.
    const current = await openStream(target(small, { lastEventId: events[3]?.id }));
    expect(await current.next()).toMatchObject({ event: 'open', data: expect.stringContaining('"backlog":0') });
    await get(small, 5);
    expect(await current.next()).toMatchObject({ event: 'entry' });
    current.close();
  });

  it('the journal of unauthenticated requests resumes the same way', async () => {
    const first = await openStream(target(sb, { path: '/journal/unauthenticated/stream', key: undefined }));
    await first.next();
    await get401(1);
    const [one] = await first.until((e) => e.length === 1);
    first.close();
    await get401(2);
    const resumed = await openStream(target(sb, { path: '/journal/unauthenticated/stream', key: undefined, lastEventId: one?.id }));
    expect((await resumed.until((e) => entriesOf(e).length === 1)).map((e) => e.event)).toEqual(['open', 'entry']);
    resumed.close();
  });

  it.each([
    ['a header that is not digits', { lastEventId: 'abc' }],
    ['a negative query parameter', { search: '?lastEventId=-1' }],
    ['seventeen digits', { lastEventId: '1'.repeat(17) }],
    ['a number past 2^53', { lastEventId: '9999999999999999' }],
  ])('refuses %s: 400 in the Error shape', async (_, more) => {
    const res = await openStream(target(sb, more));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', status: 400, message: expect.stringMatching(/Last-Event-ID|lastEventId/) });
    await expectControlValid('GET', '/__sandbox/journal/stream', {
      status: 400,
      headers: new Headers({ 'content-type': 'application/json' }),
      body: res.body,
      text: JSON.stringify(res.body),
    });
  });
});

async function get401(limit: number): Promise<void> {
  expect((await sb.call(`/pets?limit=${limit}`, { key: null })).status).toBe(401);
}
