import { describe, expect, it } from 'vitest';
import { assembleEngine } from '../../src/engine/assemble.js';
import { createNoMetrics } from '../../src/ops/no-metrics.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { loadControlSpec } from '../../src/server/control-spec.js';
import { fixtureFiles } from '../../src/server/fixture-files.js';
import { openMemoryBackend } from '../../src/store/memory/backend.js';
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

  it('the engine refuses to be assembled with a mode that misses a spec operation', async () => {
    const spec = loadSpec();
    const config = testConfig(['--store', 'memory']);
    const backend = openMemoryBackend({ config, logger: silentLogger, checkResponse: () => [], operations: spec.operations });
    const partial = { operations: new Set(['listPets', 'createPet']), handle: () => Promise.reject(new Error('unused')) };
    const assemble = () =>
      assembleEngine({
        config,
        logger: silentLogger,
        spec,
        validators: createValidators(spec),
        controlSpec: loadControlSpec(),
        fixtures: fixtureFiles(),
        backend,
        version: '0.0.0-test',
        startedAt: Date.now(),
        draining: () => false,
        createMetrics: createNoMetrics,
        modes: { example: partial },
        prepareMode: () => Promise.resolve(),
        prefer: () => undefined,
      });
    try {
      expect(assemble).toThrow(/Mode example has no handler for spec operation getPet/);
    } finally {
      await backend.close();
    }
  });
});
