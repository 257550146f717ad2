/**
 * When the tests' PostgreSQL does not start, the set-up says why in one line
 * (`PostgreSQL could not start: …`), whatever stopped it: a folder its user
 * cannot enter, initdb's own error, or the server's.
 */
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reachableBinaries } from '../support/postgres-binaries.js';
import { initCluster, PostgresStartError, serverUser, startServer } from '../support/postgres-server.js';
import { startPostgres } from '../support/postgres.js';

const ONE_LINE = /^PostgreSQL could not start: [^\n]+$/;
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A new folder that the server's user owns. */
function ownedFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pg-errors-'));
  made.push(dir);
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Whatever `promise` rejected with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PostgresStartError);
  return error as Error;
}

describe('PostgreSQL that cannot start says why in one line', { timeout: 120_000 }, () => {
  const notRoot = process.getuid?.() !== 0 ? 'only root hands PostgreSQL to another user, who may meet a closed folder' : undefined;

  it.skipIf(notRoot)(
    `names the folder its user cannot enter (the temporary folder inside one of mode 0700)${notRoot ? ` (skipped: ${notRoot})` : ''}`,
    async () => {
      const closed = mkdtempSync(join(tmpdir(), 'petstore-closed-'));
      made.push(closed);
      mkdirSync(join(closed, 'tmp'));
      const saved = process.env.TMPDIR;
      process.env.TMPDIR = join(closed, 'tmp');
      try {
        const error = await rejection(startPostgres());
        expect(error.message).toMatch(ONE_LINE);
        expect(error.message).toContain(`the user ${serverUser()?.name} cannot reach ${join(closed, 'tmp')}/petstore-pg-bin-`);
        expect(error.message).toContain(`${closed} (mode 0700, owner uid 0) is closed to it`);
      } finally {
        if (saved === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = saved;
      }
    },
  );

  it("gives initdb's error line, not its arguments", async () => {
    const error = await rejection(initCluster(reachableBinaries(), join(ownedFolder(), 'data'), '/nonexistent/password', serverUser()));
    expect(error.message).toMatch(ONE_LINE);
    expect(error.message).toBe(
      'PostgreSQL could not start: initdb failed (exit code 1): initdb: error: could not open file "/nonexistent/password" for reading: No such file or directory',
    );
  });

  it("gives the server's FATAL line, and tells a port taken from other failures", async () => {
    const bin = reachableBinaries();
    const user = serverUser();
    const parent = ownedFolder();
    const password = join(parent, 'password');
    writeFileSync(password, 'password\n', { mode: 0o644 });
    await initCluster(bin, join(parent, 'data'), password, user);
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = holder.address() as { port: number };
      const error = await rejection(startServer(bin, join(parent, 'data'), port, ['-c', 'listen_addresses=127.0.0.1'], user));
      expect(error.message).toMatch(ONE_LINE);
      expect(error.message).toMatch(/the server ended \(exit code 1\) before it was ready: FATAL: {1,2}could not create any TCP\/IP sockets$/);
      expect((error as PostgresStartError).portTaken).toBe(true);
      const missing = await rejection(startServer(bin, join(parent, 'nothing'), port + 1, [], user));
      expect(missing.message).toMatch(ONE_LINE);
      expect((missing as PostgresStartError).portTaken).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
