import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli as cli } from '../support/cli.js';
import { tempDir } from '../support/harness.js';
import { expectSpecValid } from '../support/spec-check.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe.concurrent('bad arguments -> exit 2 with a clear message and the usage', { timeout: 180_000 }, () => {
  it.each([
    [['--port', 'abc'], {}, "--port (or PETSTORE_PORT) must be a whole number, got 'abc'"],
    [['--port', '99999'], {}, '--port (or PETSTORE_PORT) must be between 0 and 65535'],
    [['--mode', 'mocking'], {}, '--mode must be one of stateful, example, dynamic'],
    [['--bogus'], {}, "'--bogus'"],
    [['frobnicate'], {}, "unknown command 'frobnicate'"],
    [['--api-keys', 'fine,has space'], {}, '--api-keys: key 2 is not a valid bearer token'],
    [[], { PETSTORE_BODY_LIMIT: 'huge' }, "--body-limit (or PETSTORE_BODY_LIMIT) must be a whole number, got 'huge'"],
  ])('%j %j', async (args, env, message) => {
    const dir = tempDir();
    const run = await cli([...args, '--data', join(dir, 'db.json')], env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`petstore-sandbox: `);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: petstore-sandbox');
    // Nothing was started, so nothing was written.
    expect(existsSync(join(dir, 'db.json'))).toBe(false);
  });
});

const PET = { id: 1, name: 'Rex', categoryId: 1 };
describe.concurrent('a data file that cannot be used -> clear error naming the file, exit non-zero, file untouched', { timeout: 180_000 }, () => {
  it.each([
    ['not JSON', '{"format":1,"nextId":2,"pets":[', ['not valid JSON']],
    ['empty', '', ['not valid JSON']],
    ['JSON of another program', '{"users":[]}', ['not a pet store data file']],
    ['an invalid pet', JSON.stringify({ format: 1, epoch: 0, nextId: 2, pets: [{ ...PET, name: 5 }] }), ['index 0', 'name']],
    ['an unknown field', JSON.stringify({ format: 1, epoch: 0, nextId: 2, pets: [{ ...PET, owner: 'x' }] }), ['index 0', 'owner']],
    ['duplicate ids', JSON.stringify({ format: 1, epoch: 0, nextId: 2, pets: [PET, PET] }), ['duplicate pet id 1']],
  ])('%s', async (_label, content, phrases) => {
    const dir = tempDir();
    const file = join(dir, 'db.json');
    writeFileSync(file, content);
    const run = await cli(['--port', '0', '--data', file]);
    expect(run.code, run.stdout + run.stderr).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toContain(file);
    for (const phrase of phrases) expect(run.stderr).toContain(phrase);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).not.toContain('listening');
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('a corrupt write-ahead log is named and left untouched too', async () => {
    const dir = tempDir();
    const file = join(dir, 'db.json');
    const data = `${JSON.stringify({ format: 1, epoch: 0, nextId: 2, pets: [PET] })}\n`;
    const log = `${JSON.stringify({ e: 0, pet: { id: 2, name: 'A', categoryId: 1 } })}\n#garbage#\n${JSON.stringify({ e: 0, pet: { id: 3, name: 'B', categoryId: 1 } })}\n`;
    writeFileSync(file, data);
    writeFileSync(`${file}.log`, log);
    const run = await cli(['--port', '0', '--data', file]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${file}.log`);
    expect([readFileSync(file, 'utf8'), readFileSync(`${file}.log`, 'utf8')]).toEqual([data, log]);
  });

  it('a folder where the data file should be', async () => {
    const dir = tempDir();
    const file = join(dir, 'db.json');
    mkdirSync(file);
    const run = await cli(['--port', '0', '--data', file]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(file);
  });
});

describe('a running CLI sandbox', { timeout: 180_000 }, () => {
  it('takes its keys from PETSTORE_API_KEYS and stops on SIGTERM', async () => {
    const dir = tempDir();
    const child = spawn('npx', ['tsx', 'src/bin.ts', '--port', '0', '--data', join(dir, 'db.json')], {
      cwd: ROOT,
      env: { ...process.env, PETSTORE_API_KEYS: 'env-one,env-two' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npx, tsx and node are stopped together, and only they.
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        const check = () => {
          const match = /listening on (http:\/\/\S+\/v1)/.exec(out);
          if (match?.[1]) resolve(match[1]);
        };
        child.stdout.on('data', check);
        void exited.then(() => reject(new Error(`exited early: ${out}`)));
      });
      const statuses: number[] = [];
      for (const key of ['env-one', 'env-two', 'sandbox-key']) {
        const res = await fetch(`${baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
        await expectSpecValid('listPets', { status: res.status, headers: res.headers, body: await res.json() });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 401]);
    } finally {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    expect(out).toContain('SIGTERM');
  });

  it('--help exits 0 with the usage, --version prints the package version', async () => {
    const help = await cli(['--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: petstore-sandbox')]);
    const version = await cli(['--version']);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect([version.code, version.stdout.trim()]).toEqual([0, pkg.version]);
  });
});
