/**
 * Exposed safely, over the real CLI: beyond loopback it refuses the
 * documented secrets (exit 2, saying how to set them) and serves with its
 * own, read from files; and no configured secret ever shows in anything it
 * prints (banner, errors), whatever happens.
 *
 * The one sandbox on 0.0.0.0 has random secrets and a random port, and is
 * stopped by its test.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { killSandbox, runCli, SandboxExit, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';
import { tempDir } from '../support/harness.js';

const dir = tempDir('petstore-exposure-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const dataFile = () => join(dir, `${++n}`, 'db.json');

/** Distinctive secrets: any appearance of one in the output is a leak. */
const ADMIN = `admin-${randomBytes(12).toString('hex')}`;
const KEYS = [`key-${randomBytes(12).toString('hex')}`, `key-${randomBytes(12).toString('hex')}`];
const SECRETS = [ADMIN, ...KEYS];
const secretsIn = (text: string) => SECRETS.filter((s) => text.includes(s));

function secretFiles(): { admin: string; keys: string } {
  const folder = join(dir, `secrets-${++n}`);
  mkdirSync(folder);
  writeFileSync(join(folder, 'admin'), `${ADMIN}\n`);
  writeFileSync(join(folder, 'keys'), `# keys of the CI jobs\n${KEYS[0]}\n${KEYS[1]}\n`);
  return { admin: join(folder, 'admin'), keys: join(folder, 'keys') };
}

/** A local address other than loopback, if this machine has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('beyond loopback, the documented secrets are refused', { timeout: 120_000 }, () => {
  it.each([
    [[], ['admin token', 'API keys']],
    [['--api-keys', 'own-key'], ['admin token']],
    [['--admin-token', 'own-admin-token-0123'], ['API keys']],
  ])('--host 0.0.0.0 %j: exit 2, saying which default remains and how to set it, before anything is opened', async (args, which) => {
    const file = dataFile();
    // Should it start after all, it is stopped at once and the test fails.
    const outcome = await spawnSandbox(file, ['--host', '0.0.0.0', ...args]).then(killSandbox, (error: unknown) => error);
    expect(outcome).toBeInstanceOf(SandboxExit);
    const { ended, out, err } = outcome as SandboxExit;
    expect(ended.code, err).toBe(2);
    for (const secret of which) expect(err).toContain(`the ${secret} `);
    expect(err).toContain(which.includes('admin token') ? '--admin-token-file' : '--api-keys-file');
    expect(out).not.toContain('listening');
    expect(existsSync(join(file, '..'))).toBe(false);
  });

  it('with secrets of its own, from files, it serves on 0.0.0.0, and shows none of them', async () => {
    const files = secretFiles();
    let sb: ChildSandbox | undefined;
    try {
      sb = await spawnSandbox(dataFile(), ['--host', '0.0.0.0', '--admin-token-file', files.admin], { env: { PETSTORE_API_KEYS_FILE: files.keys } });
      const port = new URL(sb.origin).port;
      for (const host of ['127.0.0.1', ...(external ? [external] : [])]) {
        const pets = await fetch(`http://${host}:${port}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${KEYS[1]}` } });
        expect(pets.status).toBe(200);
        const refused = await fetch(`http://${host}:${port}/v1/pets?limit=1`, { headers: { authorization: 'Bearer sandbox-key' } });
        expect(refused.status).toBe(401);
        const control = createControlClient({ origin: `http://${host}:${port}`, adminToken: ADMIN });
        expect(await control.call('getMode')).toMatchObject({ mode: 'stateful' });
      }
      expect(sb.output()).toContain('(not shown)');
      expect(sb.output()).toContain(`(admin token: from --admin-token-file '${files.admin}')`);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      expect(secretsIn(sb.output())).toEqual([]);
    } finally {
      await killSandbox(sb);
    }
  });
});

describe('secrets never appear in what it prints', { timeout: 120_000 }, () => {
  it('the banner shows the documented development key on loopback, and no configured one', async () => {
    const plain = await spawnSandbox(dataFile());
    const own = await spawnSandbox(dataFile(), ['--api-keys', KEYS.join(','), '--admin-token', ADMIN]);
    try {
      expect(await stopSandbox(plain)).toEqual({ code: 0, signal: null });
      expect(await stopSandbox(own)).toEqual({ code: 0, signal: null });
      expect(plain.output()).toContain('Authorization: Bearer sandbox-key');
      expect(own.output()).toContain('API key:   the first configured key (not shown)');
      expect(plain.output()).toContain("(admin token: the default 'sandbox-admin')");
      expect(own.output()).toContain('(admin token: from --admin-token)');
      expect(secretsIn(own.output())).toEqual([]);
    } finally {
      await Promise.all([killSandbox(plain), killSandbox(own)]);
    }
  });

  it('nor in errors: a bad option, a bad key among them, an unreadable file, a taken port, a refused admin token', async () => {
    const env = { PETSTORE_ADMIN_TOKEN: ADMIN, PETSTORE_API_KEYS: KEYS.join(',') };
    const runs = [
      await runCli(['--port', 'abc', '--data', dataFile()], env),
      await runCli(['--api-keys', `${KEYS[0]},${KEYS[1]} x`, '--data', dataFile()]),
      await runCli(['--admin-token', `${ADMIN}!`, '--data', dataFile()]),
      await runCli(['--admin-token-file', join(dir, 'no-such-file'), '--data', dataFile()], { PETSTORE_API_KEYS: KEYS.join(',') }),
    ];
    for (const run of runs) expect(run.code).toBe(2);
    expect(runs[1]?.stderr).toContain('key 2 is not a valid bearer token');
    expect(runs[3]?.stderr).toContain(join(dir, 'no-such-file'));

    const file = dataFile();
    const sb = await spawnSandbox(file, ['--api-keys', KEYS.join(','), '--admin-token', ADMIN]);
    try {
      const taken = await runCli(['--port', new URL(sb.origin).port, '--data', dataFile()], env);
      expect([taken.code, taken.stderr]).toEqual([1, expect.stringContaining('already in use')]);
      const wrongToken = await runCli(['journal', '--data', file, '--admin-token', 'not-the-admin-token'], { PETSTORE_API_KEYS: KEYS.join(',') });
      expect([wrongToken.code, wrongToken.stderr]).toEqual([1, expect.stringContaining('403')]);
      runs.push(taken, wrongToken);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    } finally {
      await killSandbox(sb);
    }
    const printed = [...runs.map((r) => r.stdout + r.stderr), sb.output()].join('\n');
    expect(secretsIn(printed)).toEqual([]);
  });
});
