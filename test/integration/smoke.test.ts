import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

describe('smoke', () => {
  it('lists 20 seeded pets by default', async () => {
    const res = await sb.op('listPets', '/pets');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(20);
  });
});
