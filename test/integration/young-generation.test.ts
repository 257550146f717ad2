/**
 * The served process keeps V8's young generation within its cap
 * (src/server/young-generation.ts), read from its own `/metrics`: a store
 * of 100,000 pets seeded at start, then reads, which without the cap grew
 * the space to 32 MiB before the first request (the installed bundle, not
 * the sources through tsx).
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSandbox } from '../support/bundle.js';
import { tempDir } from '../support/harness.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';
import { YOUNG_GENERATION_BYTES } from '../../src/server/young-generation.js';

/** The young generation's size as the process's metrics report it, bytes. */
async function youngBytes(sb: ChildSandbox): Promise<number> {
  const res = await fetch(`${sb.origin}/metrics`);
  expect(res.status).toBe(200);
  const family = parsePrometheusTextFormat(await res.text()).find((f) => f.name === 'nodejs_heap_space_size_total_bytes');
  const sample = family?.metrics.find((m) => m.labels?.space === 'new');
  expect(sample, 'nodejs_heap_space_size_total_bytes{space="new"}').toBeDefined();
  return Number(sample?.value);
}

describe('the young generation of a served sandbox', () => {
  let sb: ChildSandbox | undefined;
  beforeAll(async () => {
    // The bundle, as installed: through tsx, compiling the sources at start grows the space before the sandbox's code runs.
    const bin = await bundleSandbox('young-generation');
    sb = await spawnSandbox(join(tempDir(), 'db.json'), ['--count', '100000'], { bin });
  }, 120_000);
  afterAll(async () => {
    if (sb) await stopSandbox(sb).catch(() => killSandbox(sb));
  });

  it('stays within its cap through seeding 100,000 pets and serving reads', async () => {
    const sandbox = sb as ChildSandbox;
    expect(await youngBytes(sandbox)).toBeLessThanOrEqual(YOUNG_GENERATION_BYTES);
    // Bounded: 2,000 reads of a 100-pet page, 10 at a time.
    for (let i = 0; i < 200; i++) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await fetch(`${sandbox.baseUrl}/pets?status=sold&limit=100`, { headers: { authorization: 'Bearer sandbox-key' } });
          expect(res.status).toBe(200);
          await res.arrayBuffer();
        }),
      );
    }
    expect(await youngBytes(sandbox)).toBeLessThanOrEqual(YOUNG_GENERATION_BYTES);
  }, 60_000);
});
