/**
 * `--ready-file`: once the sandbox listens, a script that started it on
 * `--port 0` finds its address, pages and pid in that file as JSON, written
 * whole (renamed into place); the file is gone once the sandbox stopped, and
 * a file that cannot be written stops the start with a clear message.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { killSandbox, SandboxExit, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

// The pages the file names are built files (dist/ui), absent from a fresh clone: build them as `npm run build` does.
beforeAll(() => import('../../web/build.js'), 60_000);

describe('--ready-file', { timeout: 120_000 }, () => {
  it('holds the address the OS chose, the docs page, the console and the pid while the sandbox runs', async () => {
    const dir = tempDir();
    // A folder that does not exist yet: made, as for the data file.
    const ready = join(dir, 'run', 'sandbox.json');
    let sb: ChildSandbox | undefined;
    try {
      sb = await spawnSandbox(join(dir, 'db.json'), ['--ready-file', ready, '--log-level', 'warn']);
      const info = JSON.parse(readFileSync(ready, 'utf8')) as Record<string, unknown>;
      const port = Number(new URL(sb.origin).port);
      expect(port).toBeGreaterThan(0);
      expect(info).toEqual({
        url: sb.baseUrl,
        origin: sb.origin,
        port,
        docs: `${sb.origin}/docs`,
        console: `${sb.origin}/__sandbox/ui`,
        pid: sb.child.pid,
      });
      for (const page of [info.docs, info.console]) expect((await fetch(String(page))).status, String(page)).toBe(200);
      expect(sb.stdout()).toContain(`listening on ${sb.baseUrl}; docs ${sb.origin}/docs; console ${sb.origin}/__sandbox/ui`);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      expect(existsSync(ready)).toBe(false);
    } finally {
      await killSandbox(sb);
    }
  });

  it('one that cannot be written stops the start, saying which and why', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a-file'), '');
    const started = spawnSandbox(join(dir, 'db.json'), ['--ready-file', join(dir, 'a-file', 'ready.json')]);
    const refused = await started.then(
      async (sb) => {
        await killSandbox(sb);
        throw new Error('it started without its ready file');
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SandboxExit);
    const { ended, err, out } = refused as SandboxExit;
    expect(ended.code).toBe(1);
    expect(err).toContain(`cannot write --ready-file ${join(dir, 'a-file', 'ready.json')}: E`);
    expect(err).toContain('; stopping');
    expect(out).not.toContain('listening on');
  });
});
