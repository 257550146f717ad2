import { describe, expect, it } from 'vitest';
import { perClientCap } from '../../../src/adapters/node-client-limits.js';

describe('perClientCap', () => {
  it('keeps a cap below the global one as it is', () => {
    expect(perClientCap(256, 1000)).toEqual({ perClient: 256 });
    expect(perClientCap(999, 1000)).toEqual({ perClient: 999 });
  });

  it('lowers a cap that is not below the global one to half of it, and says so', () => {
    expect(perClientCap(256, 50)).toEqual({ perClient: 25, note: expect.stringMatching(/at most 25 connections per client, not 256/) as unknown });
    expect(perClientCap(1000, 1000).perClient).toBe(500);
  });

  it('leaves one connection at least, for a global cap of one', () => {
    expect(perClientCap(5, 1).perClient).toBe(1);
  });
});
