import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workspaceIdsOf } from '../../../src/store/workspace-id.js';

const secret = new Uint8Array(32).fill(7);

describe('the workspace id every store gives a key', () => {
  it('is the first 16 hex digits of HMAC-SHA256 of the key under the secret', () => {
    const idOf = workspaceIdsOf(secret);
    const expected = createHmac('sha256', secret).update('team-key').digest('hex').slice(0, 16);
    expect(idOf('team-key')).toBe(expected);
    expect(idOf('team-key')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is the same for a key each time, and differs between keys and between secrets', () => {
    const idOf = workspaceIdsOf(secret);
    expect(idOf('a')).toBe(idOf('a'));
    expect(idOf('a')).not.toBe(idOf('b'));
    expect(workspaceIdsOf(new Uint8Array(32).fill(8))('a')).not.toBe(idOf('a'));
  });

  it('stays right past the ids it remembers', () => {
    const idOf = workspaceIdsOf(secret);
    const first = idOf('key-0');
    for (let i = 1; i <= 5000; i++) idOf(`key-${i}`);
    expect(idOf('key-0')).toBe(first);
    expect(idOf('key-4999')).toBe(createHmac('sha256', secret).update('key-4999').digest('hex').slice(0, 16));
  });

  // fast-check's first strings of any Unicode cost a second or more to set up: on a loaded machine the default 5 s is too short.
  it('is the digest node:crypto gives, for any key and secret (any Unicode, lone surrogates too)', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.uint8Array({ minLength: 1, maxLength: 80 }), (key, bytes) => {
        expect(workspaceIdsOf(bytes)(key)).toBe(createHmac('sha256', bytes).update(key).digest('hex').slice(0, 16));
      }),
      { numRuns: 500 },
    );
  });
});
