/**
 * The peers comparison's arithmetic and checks (test/bench/load.ts
 * `roundRatio`, peer-check.ts, peer-files.ts): a target is the median of the
 * ratios taken within each round, not the ratio of two medians; a peer's
 * answer that differs from the sandbox's is named; and the peers' files
 * hold the sandbox's default seed.
 */
import { describe, expect, it } from 'vitest';
import { combine, roundRatio, type LoadResult } from '../../bench/load.js';
import { difference } from '../../bench/peer-check.js';
import { CREATED, PAGE, PET_ID, SEEDED } from '../../bench/peer-files.js';
import { generatePets } from '../../../src/store/seed.js';

const rounds = (...rps: number[]): LoadResult => combine(rps.map((r) => ({ rps: r, p50: 1, p99: 2, requests: r, non2xx: 0, errors: 0, cpuUs: 10 })));

describe('the peers comparison', () => {
  it('takes the ratio within each round, then its median', () => {
    // Round 2 was slow for both: within-round ratios are 2, 2, 1; the medians' ratio would be 1000 / 900.
    const sandbox = rounds(2000, 200, 1000);
    const peer = rounds(1000, 100, 1000);
    expect(sandbox.roundRps).toEqual([2000, 200, 1000]);
    expect(roundRatio(sandbox, peer)).toBe(2);
    expect(roundRatio(sandbox, undefined)).toBeNaN();
  });

  it('names an answer that differs from the sandbox', () => {
    const want = { status: 200, body: [{ id: 1, name: 'Rex', categoryId: 1 }] };
    expect(difference('peer, GET', { status: 200, body: [{ id: 1, name: 'Rex', categoryId: 1 }] }, want)).toBeUndefined();
    expect(difference('peer, GET', { status: 200, body: [{ id: 1, name: 'Rex', categoryId: 2 }] }, want)).toMatch(/^peer, GET: \[\{"id":1/);
    expect(difference('peer, GET', { status: 404, body: {} }, want)).toBe('peer, GET: status 404, not 200');
  });

  it("serves the sandbox's default seed: its first page, pet 7, and the Pet of a first create", () => {
    expect(SEEDED).toEqual(generatePets(1, 50));
    expect(PAGE.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(SEEDED.some((p) => p.id === PET_ID)).toBe(true);
    expect(CREATED).toEqual({ id: 51, name: 'Bench', categoryId: 1, status: 'available' });
  });
});
