import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { createStatefulMode } from '../../src/modes/stateful/index.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { createValidators } from '../../src/openapi/validate.js';
import { Workspaces } from '../../src/store/file/workspaces.js';
import { testConfig } from '../support/harness.js';
import { documentedStatuses } from '../support/spec-check.js';

describe('spec coverage of the stateful mode', () => {
  it('every spec operation has a handler, and no handler answers an operation the spec lacks', async () => {
    // Operation ids read by the independent checker, not by the server's own spec loader.
    const specOps = [...(await documentedStatuses()).keys()].sort();
    expect(specOps).toEqual(['createPet', 'getPet', 'listPets']);
    const mode = createStatefulMode(
      await Workspaces.open({ dataFile: '/nonexistent/db.json', defaultKey: 'sandbox-key', store: { seed: { seed: 1, count: 0 } } }),
    );
    expect([...mode.operations].sort()).toEqual(specOps);
  });

  it('the app refuses to start with a mode that misses a spec operation', () => {
    const spec = loadSpec();
    const partial = { operations: new Set(['listPets', 'createPet']), handle: () => Promise.reject(new Error('unused')) };
    expect(() =>
      createApp({ config: testConfig(), spec, validators: createValidators(spec), runtime: { mode: 'stateful' }, modes: { stateful: partial } }),
    ).toThrow(/getPet/);
  });
});
