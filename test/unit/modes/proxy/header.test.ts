import { describe, expect, it } from 'vitest';
import { VIOLATIONS_HEADER_LIMIT, violationsHeader } from '../../../../src/modes/proxy/header.js';
import type { Violation } from '../../../../src/kernel/operation.js';

const violation = (message: string, name = 'limit'): Violation => ({ at: 'request', in: 'query', name, message });

describe('the Sandbox-Violations header', () => {
  it('is absent for a valid exchange', () => {
    expect(violationsHeader([])).toBeUndefined();
  });

  it('is a JSON array of the violations, in order', () => {
    const list = [violation('must be >= 1'), { at: 'response', in: 'body', name: '0/id', message: 'must be integer' } as Violation];
    expect(JSON.parse(violationsHeader(list) as string)).toEqual(list);
  });

  it('is ASCII, other characters escaped, and still parses to the same text', () => {
    const list = [violation('must be one of: chien, «chat», 猫')];
    const value = violationsHeader(list) as string;
    expect(value).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(value)).toEqual(list);
  });

  it('stays within its limit, naming how many it left out', () => {
    const list = Array.from({ length: 200 }, (_, i) => violation('x'.repeat(100), `field${i}`));
    const value = violationsHeader(list) as string;
    expect(value.length).toBeLessThanOrEqual(VIOLATIONS_HEADER_LIMIT);
    const parsed = JSON.parse(value) as (Violation | { more: number })[];
    const last = parsed.at(-1) as { more: number };
    expect(parsed.slice(0, -1)).toEqual(list.slice(0, parsed.length - 1));
    expect(last).toEqual({ more: list.length - (parsed.length - 1) });
  });

  it('lists a single violation longer than the limit as left out', () => {
    expect(JSON.parse(violationsHeader([violation('y'.repeat(VIOLATIONS_HEADER_LIMIT))]) as string)).toEqual([{ more: 1 }]);
  });
});
