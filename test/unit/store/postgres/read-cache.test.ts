import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../../../src/store/postgres/read-cache.js';

describe('ReadCache', () => {
  it('answers only at the newest version seen: an entry read before a change is never served after it', () => {
    const cache = new ReadCache(1_000);
    cache.set('w', 'page', 3, 'three', 10, cache.epoch);
    expect(cache.get('w', 'page')).toBe('three');
    cache.observe('w', 4);
    expect(cache.get('w', 'page')).toBeUndefined();
    cache.set('w', 'page', 4, 'four', 10, cache.epoch);
    expect(cache.get('w', 'page')).toBe('four');
  });

  it('never goes back: an older version reported late neither hides newer entries nor is kept', () => {
    const cache = new ReadCache(1_000);
    cache.set('w', 'page', 5, 'five', 10, cache.epoch);
    cache.observe('w', 4);
    expect(cache.get('w', 'page')).toBe('five');
    cache.set('w', 'other', 4, 'old', 10, cache.epoch);
    expect(cache.get('w', 'other')).toBeUndefined();
  });

  it('a read that found a newer version than the last sync is kept at that version', () => {
    const cache = new ReadCache(1_000);
    cache.observe('w', 1);
    cache.set('w', 'page', 2, 'two', 10, cache.epoch);
    expect(cache.get('w', 'page')).toBe('two');
  });

  it('forgets a removed workspace: its entries go, the others stay, and its versions start over', () => {
    const cache = new ReadCache(1_000);
    cache.set('gone', 'page', 9, 'old', 10, cache.epoch);
    cache.set('kept', 'page', 2, 'k2', 10, cache.epoch);
    cache.forget('gone');
    expect(cache.get('gone', 'page')).toBeUndefined();
    expect(cache.get('kept', 'page')).toBe('k2');
    cache.set('gone', 'page', 1, 'fresh', 10, cache.epoch);
    expect(cache.get('gone', 'page')).toBe('fresh');
  });

  it("gives back a forgotten workspace's bytes", () => {
    const cache = new ReadCache(100);
    cache.set('gone', 'a', 1, 'a', 25, cache.epoch);
    cache.set('gone', 'b', 1, 'b', 25, cache.epoch);
    cache.set('gone', 'c', 1, 'c', 25, cache.epoch);
    cache.forget('gone');
    for (const key of ['x', 'y', 'z', 'w']) cache.set('kept', key, 1, key, 25, cache.epoch);
    expect(['x', 'y', 'z', 'w'].map((key) => cache.get('kept', key))).toEqual(['x', 'y', 'z', 'w']);
  });

  it('keeps workspaces apart', () => {
    const cache = new ReadCache(1_000);
    cache.set('a', 'page', 1, 'a1', 10, cache.epoch);
    cache.set('b', 'page', 7, 'b7', 10, cache.epoch);
    cache.observe('a', 2);
    expect(cache.get('a', 'page')).toBeUndefined();
    expect(cache.get('b', 'page')).toBe('b7');
  });

  it('stays within its byte budget, dropping first the oldest entry not read since it was last passed over', () => {
    const cache = new ReadCache(100);
    cache.set('w', 'one', 1, 1, 20, cache.epoch);
    cache.set('w', 'two', 1, 2, 20, cache.epoch);
    cache.set('w', 'three', 1, 3, 20, cache.epoch);
    expect(cache.get('w', 'one')).toBe(1);
    cache.set('w', 'four', 1, 4, 20, cache.epoch);
    cache.set('w', 'five', 1, 5, 20, cache.epoch);
    cache.set('w', 'six', 1, 6, 20, cache.epoch);
    expect(cache.get('w', 'two')).toBeUndefined();
    expect(cache.get('w', 'one')).toBe(1);
    expect(cache.get('w', 'six')).toBe(6);
    // `three`, never read, is now the oldest entry not read since it was passed over: the next to go.
    cache.set('w', 'seven', 1, 7, 20, cache.epoch);
    expect([cache.get('w', 'three'), cache.get('w', 'four'), cache.get('w', 'one')]).toEqual([undefined, 4, 1]);
    // An answer bigger than a quarter of the budget is not kept at all.
    cache.set('w', 'big', 1, 'big', 26, cache.epoch);
    expect(cache.get('w', 'big')).toBeUndefined();
  });

  it('after a reset keeps nothing, nor what a read that began before it brings back', () => {
    const cache = new ReadCache(1_000);
    cache.set('w', 'page', 3, 'three', 10, cache.epoch);
    const before = cache.epoch;
    cache.reset();
    expect(cache.get('w', 'page')).toBeUndefined();
    cache.set('w', 'page', 3, 'late', 10, before);
    expect(cache.get('w', 'page')).toBeUndefined();
    cache.set('w', 'page', 4, 'four', 10, cache.epoch);
    expect(cache.get('w', 'page')).toBe('four');
  });
});
