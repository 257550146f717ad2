import { describe, expect, it } from 'vitest';
import { requestIdOf } from '../../../src/engine/engine.js';
import { uuidFromRandomValues } from '../../../src/kernel/uuid.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('a request id', () => {
  it('is the client’s when acceptable, else a new version 4 UUID', () => {
    expect(requestIdOf({ 'x-request-id': 'trace-1' })).toBe('trace-1');
    expect(requestIdOf({ 'x-request-id': 'has space' })).toMatch(V4);
    expect(requestIdOf({})).not.toBe(requestIdOf({}));
  });

  it('is a version 4 UUID where only getRandomValues exists (a page on plain HTTP), each one new', () => {
    const ids = new Set(Array.from({ length: 200 }, uuidFromRandomValues));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(V4);
  });
});
