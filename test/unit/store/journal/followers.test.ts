/**
 * The live tails shared by both journals, without a journal: an entry is
 * made once per told record and only for a follower, a journal nobody
 * follows gives up its slot, and a stale stop leaves later followers alone.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../../src/store/journal/types.js';
import { JournalFollowers } from '../../../../src/store/journal/followers.js';

/** A stand-in entry: the followers pass it on and never look inside. */
const entry = (n: string) => ({ query: { n } }) as unknown as JournalEntry;

describe('JournalFollowers', () => {
  it("makes an entry once for all of a journal's followers, and none for a journal nobody follows", () => {
    const followers = new JournalFollowers();
    const seen: unknown[] = [];
    followers.follow('a', (e) => seen.push(['one', e.query.n]));
    followers.follow('a', (e) => seen.push(['two', e.query.n]));
    let made = 0;
    const show = (n: string) => () => {
      made += 1;
      return entry(n);
    };
    followers.tell('a', 1, show('a1'));
    followers.tell('b', 2, show('b1'));
    expect(made).toBe(1);
    expect(seen).toEqual([
      ['one', 'a1'],
      ['two', 'a1'],
    ]);
  });

  it('is idle again once the last follower stops, and a stop called twice leaves a later follower alone', () => {
    const followers = new JournalFollowers();
    expect(followers.idle).toBe(true);
    const stop = followers.follow('a', () => {});
    expect(followers.idle).toBe(false);
    stop();
    expect(followers.idle).toBe(true);
    const seen: unknown[] = [];
    followers.follow('a', (e) => seen.push(e.query.n));
    stop();
    followers.tell('a', 3, () => entry('a2'));
    expect([followers.idle, seen]).toEqual([false, ['a2']]);
  });
});
