/**
 * A start that fails after it wrote (its port taken in the moment between
 * the probe and its own `listen`) takes away what it wrote, and only that:
 * the probe is made to pass here, so that the port is found busy only once
 * the data file was seeded and its secret written.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, createSandbox } from '../../src/index.js';
import { startSandbox } from '../../src/server/sandbox.js';
import type * as StartClaim from '../../src/server/start-claim.js';
import { testConfig, tempDir } from '../support/harness.js';
import { footprint, occupiedPort } from '../support/footprint.js';

vi.mock('../../src/server/start-claim.js', async (original) => ({
  ...(await original<typeof StartClaim>()),
  probePort: () => Promise.resolve(),
}));

/** A port some other program listens on. */
const busy = occupiedPort();

const VALID = `${JSON.stringify({ format: 1, epoch: 0, nextId: 2, pets: [{ id: 1, name: 'Rex', categoryId: 1 }] })}\n`;

describe('a start whose listen fails after its data file was written', { timeout: 60_000 }, () => {
  it('the server: a data folder it made goes, with the seeded file and its secret', async () => {
    const dir = tempDir();
    const config = testConfig(['--port', String(busy.port()), '--data', join(dir, 'data', 'db.json')], dir);
    await expect(startSandbox(config)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(footprint(dir)).toEqual({});
  });

  it('the server: a data file the user had stays as it was; the secret made for it goes', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'db.json'), VALID);
    writeFileSync(join(dir, 'notes.txt'), 'not the sandbox’s');
    const before = footprint(dir);
    await expect(startSandbox(testConfig(['--port', String(busy.port())], dir))).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(footprint(dir)).toEqual(before);
  });

  it('the library: a ConfigError naming `port`, and nothing left', async () => {
    const dir = tempDir();
    const failed = createSandbox({ port: busy.port(), store: join(dir, 'data', 'db.json') });
    await expect(failed).rejects.toThrow(ConfigError);
    await expect(failed).rejects.toThrow('choose another `port`');
    expect(footprint(dir)).toEqual({});
  });
});
