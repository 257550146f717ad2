import { describe, expect, it } from 'vitest';
import { OpenKeyUse, removalReason } from '../../../src/store/open-key-policy.js';

const policy = { max: 2, ttlMs: 1_000 };
const NOW = 10_000;

/** Workspaces used at the given times, oldest first. */
function used(times: Record<string, number>): OpenKeyUse<{ lastUsed: number }> {
  const kept = new OpenKeyUse<{ lastUsed: number }>();
  for (const [id, lastUsed] of Object.entries(times)) kept.use(id, { lastUsed });
  return kept;
}

describe('which open key workspace goes, and when (--open-key-workspaces, --open-key-ttl)', () => {
  it('unused past the TTL goes for that reason; else beyond the cap, counting the room asked for', () => {
    expect(removalReason(policy, NOW - 1_001, 1, 0, NOW)).toBe('ttl');
    expect(removalReason(policy, NOW - 1_000, 1, 0, NOW)).toBeUndefined();
    expect(removalReason(policy, NOW, 3, 0, NOW)).toBe('cap');
    expect(removalReason(policy, NOW, 2, 0, NOW)).toBeUndefined();
    expect(removalReason(policy, NOW, 2, 1, NOW)).toBe('cap');
  });

  it('offers the least recently used first, and stops at the first that is not due', () => {
    const kept = used({ a: NOW - 5, b: NOW - 4, c: NOW - 3, d: NOW - 2 });
    const offered: string[] = [];
    for (const [id, , reason] of kept.due(policy, NOW)) {
      offered.push(`${id}:${reason}`);
      kept.delete(id);
    }
    expect(offered).toEqual(['a:cap', 'b:cap']);
    expect(kept.size).toBe(2);
    // In order of use, not of time: the walk ends at the first not due, though one after it is older.
    expect([...used({ x: NOW, y: 1 }).due(policy, NOW)]).toEqual([]);
  });

  it('one that is skipped (in use) stays and still counts: the next oldest goes in its place', () => {
    const kept = used({ a: NOW - 5, b: NOW - 4, c: NOW - 3 });
    const removed: string[] = [];
    for (const [id] of kept.due(policy, NOW)) {
      if (id === 'a') continue;
      removed.push(id);
      kept.delete(id);
    }
    expect(removed).toEqual(['b']);
    expect(kept.get('a')).toBeDefined();
  });

  it('a use makes a workspace the most recently used, so the cap takes others first; past the TTL all go', () => {
    const kept = used({ a: NOW - 5, b: NOW - 4, c: NOW - 3 });
    kept.use('a', { lastUsed: NOW });
    expect(kept.due(policy, NOW).next().value?.[0]).toBe('b');
    const stale = used({ a: 1, b: 2 });
    expect([...stale.due(policy, NOW)].map(([id, , why]) => `${id}:${why}`)).toEqual(['a:ttl', 'b:ttl']);
  });
});
