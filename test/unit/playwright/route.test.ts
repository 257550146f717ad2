/** Which of a page's requests `sandbox.route` sends to the sandbox, and to which /v1 target. */
import { describe, expect, it } from 'vitest';
import { sandboxTarget } from '../../../src/playwright/route.js';

describe('sandboxTarget', () => {
  it("maps a base URL's paths onto /v1, with the query", () => {
    const api = 'https://app.example/api/v1';
    expect(sandboxTarget('https://app.example/api/v1/pets?limit=2', api)).toBe('/v1/pets?limit=2');
    expect(sandboxTarget('https://app.example/api/v1/pets/7', `${api}/`)).toBe('/v1/pets/7');
    expect(sandboxTarget('https://app.example/api/v1', api)).toBe('/v1');
    expect(sandboxTarget('https://app.example/api/v1?x=1', api)).toBe('/v1?x=1');
  });

  it('leaves alone what is not under the base URL', () => {
    const api = 'https://app.example/api/v1';
    expect(sandboxTarget('https://app.example/api/v10/pets', api)).toBeUndefined();
    expect(sandboxTarget('https://app.example/index.html', api)).toBeUndefined();
    expect(sandboxTarget('https://other.example/api/v1/pets', api)).toBeUndefined();
  });

  it('takes a glob or RegExp match from its first /v1 segment on', () => {
    expect(sandboxTarget('https://app.example/api/v1/pets?status=sold', '**/v1/**')).toBe('/v1/pets?status=sold');
    expect(sandboxTarget('http://localhost:5173/backend/v1/pets/3', /\/backend\//)).toBe('/v1/pets/3');
    expect(sandboxTarget('http://localhost:5173/v1x/pets', /pets/)).toBeUndefined();
  });
});
