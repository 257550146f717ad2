/**
 * A start that fails leaves nothing behind (docs/configuration.md, "The
 * data file"): the CLI as a child process and the library in process,
 * refused for their data file, a busy port or a data folder whose parent
 * does not exist, each leave the temp folder exactly as it was: the same
 * entries, the same bytes; no secret, no seeded file, no folder, no lock.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, createSandbox } from '../../src/index.js';
import { StoreError } from '../../src/store/types.js';
import { probePort } from '../../src/server/start-claim.js';
import { runCli } from '../support/spawn.js';
import { tempDir } from '../support/harness.js';
import { footprint, occupiedPort } from '../support/footprint.js';

/** A port some other program listens on. */
const busy = occupiedPort();

/** A temp folder with `db.json` holding `content` (none when undefined), or a folder in its place. */
function folderWith(content: string | undefined | 'folder'): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, 'db.json');
  if (content === 'folder') mkdirSync(file);
  else if (content !== undefined) writeFileSync(file, content);
  return { dir, file };
}

const UNUSABLE: [string, string, string][] = [
  ['not JSON', 'not json', 'is not valid JSON (Unexpected token'],
  ['empty', '', 'is not valid JSON (Unexpected end of JSON input). Fix or move it away; it was left untouched.'],
  ['[]', '[]', 'is not a pet store data file (expected {"format":1,"epoch","nextId","pets":[...]}). It was left untouched.'],
  ['a folder', 'folder', 'EISDIR'],
];

describe.concurrent('the command line: a failed start leaves the folder as it was', { timeout: 240_000 }, () => {
  it.each(UNUSABLE)('a data file that is %s: exit 1, the file named, no secret beside it', async (_label, content, says) => {
    const { dir, file } = folderWith(content);
    const before = footprint(dir);
    const run = await runCli(['--port', '0', '--data', file]);
    expect([run.code, run.stderr]).toEqual([1, expect.stringContaining(`petstore-sandbox: `)]);
    expect(run.stderr).toContain(file);
    expect(run.stderr).toContain(says);
    expect(footprint(dir)).toEqual(before);
  });

  it("a busy port: exit 1 in the flag's words; no data file seeded, no secret, no data folder made", async () => {
    const { dir, file } = folderWith('{"kept": "as it was"}');
    const before = footprint(dir);
    const fresh = await runCli(['--port', String(busy.port()), '--data', join(dir, 'data', 'db.json')]);
    const existing = await runCli(['--port', String(busy.port()), '--data', file]);
    for (const run of [fresh, existing]) {
      expect([run.code, run.stderr.trim()]).toEqual([1, `petstore-sandbox: port ${busy.port()} on 127.0.0.1 is already in use (choose another with --port).`]);
    }
    expect(footprint(dir)).toEqual(before);
  });

  it('a data folder whose parent does not exist: exit 2, said, nothing made', async () => {
    const dir = tempDir();
    const run = await runCli(['--port', '0', '--data', join(dir, 'no', 'such', 'db.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `the data file's folder ${join(dir, 'no', 'such')} cannot be created: its parent ${join(dir, 'no')} does not exist (only one missing folder is made). Create it first, or choose another data file.`,
    );
    expect(footprint(dir)).toEqual({});
  });
});

describe('the port, tried before anything is written', () => {
  it('a busy one is refused as listen would refuse it; a free one, or 0, is let go at once', async () => {
    await expect(probePort(busy.port(), '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await probePort(0, '127.0.0.1');
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    await probePort(port, '127.0.0.1');
    // Let go: the port can be listened on again at once.
    await probePort(port, '127.0.0.1');
  });
});

describe('the library: a failed start leaves the folder as it was', { timeout: 60_000 }, () => {
  it.each(UNUSABLE)('a data file that is %s: a StoreError, no secret beside it', async (_label, content, says) => {
    const { dir, file } = folderWith(content);
    const before = footprint(dir);
    const failed = createSandbox({ store: file });
    await expect(failed).rejects.toThrow(StoreError);
    await expect(failed).rejects.toThrow(says);
    expect(footprint(dir)).toEqual(before);
  });

  it("a busy `port`: a ConfigError naming the option, in the library's words, before anything is written", async () => {
    const dir = tempDir();
    const says = `port ${busy.port()} on 127.0.0.1 is already in use: choose another \`port\` (0 for any free one).`;
    for (const store of ['memory', join(dir, 'data', 'db.json')]) {
      const failed = createSandbox({ port: busy.port(), store });
      await expect(failed).rejects.toThrow(ConfigError);
      await expect(failed).rejects.toThrow(says);
    }
    expect(footprint(dir)).toEqual({});
  });

  it('`listen(port)` on a busy port says the same', async () => {
    const sandbox = await createSandbox();
    try {
      await expect(sandbox.listen(busy.port())).rejects.toThrow(ConfigError);
      expect(sandbox.url).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  });

  it('a data folder whose parent does not exist is refused; one missing folder is made', async () => {
    const dir = tempDir();
    await expect(createSandbox({ store: join(dir, 'no', 'such', 'db.json') })).rejects.toThrow(ConfigError);
    expect(footprint(dir)).toEqual({});
    const sandbox = await createSandbox({ store: join(dir, 'data', 'db.json') });
    await sandbox.close();
    expect(Object.keys(footprint(dir))).toEqual(['data/', 'data/db.json', 'data/db.json.secret']);
  });
});
