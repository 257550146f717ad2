/**
 * A spec that cannot be served stops the start: exit 2, one short line
 * naming the file and the problem, nothing written (the data folder as it
 * was). Two specs under one base path likewise. The library refuses alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, createSandbox } from '../../src/index.js';
import { runCli, spawnSandbox, stopSandbox } from '../support/spawn.js';
import { tempDir } from '../support/harness.js';
import { footprint } from '../support/footprint.js';
import { BROKEN_REF, BROKEN_YAML, INVENTORY, PETSTORE_11 } from '../support/own-spec.js';

const EMBEDDED = join(import.meta.dirname, '../../spec/openapi.yaml');

const REFUSED: [string, string[], RegExp][] = [
  ['a reference to nothing', [BROKEN_REF], /^petstore-sandbox: cannot serve the spec .*broken-ref\.yaml: .*#\/components\/schemas\/Thing.*\n$/],
  ['not YAML', [BROKEN_YAML], /^petstore-sandbox: cannot serve the spec .*broken-yaml\.yaml: not valid YAML or JSON: .*\n$/],
  ['a missing file', ['nowhere.yaml'], /^petstore-sandbox: cannot serve the spec .*nowhere\.yaml: no such file\n$/],
  [
    'no OpenAPI 3.0',
    [join(import.meta.dirname, '../../package.json')],
    /^petstore-sandbox: cannot serve the spec .*package\.json: not an OpenAPI 3\.0 document \(it has no openapi field\)\n$/,
  ],
  [
    'two specs under /v1',
    [PETSTORE_11, EMBEDDED],
    /^petstore-sandbox: the specs .*petstore-1\.1\.yaml and .*openapi\.yaml are both served under \/v1: give each its own servers URL\n$/,
  ],
];

describe.concurrent('a spec that cannot be served', { timeout: 240_000 }, () => {
  it.each(REFUSED)('%s: exit 2, one line naming it, nothing written', async (_label, specs, says) => {
    const dir = tempDir();
    const before = footprint(dir);
    const run = await runCli(['--port', '0', '--data', join(dir, 'data', 'db.json'), ...specs.flatMap((spec) => ['--spec', spec])]);
    expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(says)]);
    expect(footprint(dir)).toEqual(before);
  });

  it('is refused by createSandbox with a ConfigError, in the same words', async () => {
    await expect(createSandbox({ spec: BROKEN_REF })).rejects.toThrow(ConfigError);
    await expect(createSandbox({ spec: [INVENTORY, INVENTORY] })).rejects.toThrow(/names .*inventory-v2\.yaml twice/);
  });
});

describe('a start with specs', { timeout: 240_000 }, () => {
  it('says where each spec is served, in the order given; the ready file names the first', async () => {
    const dir = tempDir();
    const ready = join(dir, 'ready.json');
    const sandbox = await spawnSandbox(join(dir, 'db.json'), ['--spec', PETSTORE_11, '--spec', INVENTORY, '--ready-file', ready]);
    try {
      // The lines after the start-up line, the health line last.
      await vi.waitFor(() => expect(sandbox.output()).toContain('health:'), { timeout: 10_000 });
      const lines = sandbox.output().split('\n');
      const serving = lines.filter((line) => line.includes('serving:')).map((line) => /serving: +(\S+) \((.*)\)/.exec(line)?.slice(1));
      expect(serving).toEqual([
        [`${sandbox.origin}/v1`, PETSTORE_11],
        [`${sandbox.origin}/api/v2`, INVENTORY],
      ]);
      expect(lines.some((line) => line.includes('try:'))).toBe(false);
      expect(JSON.parse(readFileSync(ready, 'utf8'))).toMatchObject({ url: `${sandbox.origin}/v1` });
    } finally {
      await stopSandbox(sandbox);
    }
  });
});
