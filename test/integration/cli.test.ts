import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../../src/store/file/commit-log.js';
import { killSandbox, ROOT, runCli as cli, spawnSandbox, stopSandbox } from '../support/spawn.js';
import { tempDir } from '../support/harness.js';
import { expectSpecValid } from '../support/spec-check.js';

describe.concurrent('bad arguments -> exit 2 with a clear message and where the help is', { timeout: 180_000 }, () => {
  it.each([
    [['--port', 'abc'], {}, "--port must be a whole number, got 'abc'"],
    [['--port', '99999'], {}, '--port must be between 0 and 65535'],
    [['--mode', 'mocking'], {}, '--mode must be one of stateful, example, dynamic'],
    [['--bogus'], {}, "unknown option '--bogus'"],
    [['frobnicate'], {}, "unknown command 'frobnicate'"],
    [['--api-keys', 'fine,has space'], {}, '--api-keys: key 2 is not a valid bearer token'],
    [[], { PETSTORE_BODY_LIMIT: 'huge' }, "PETSTORE_BODY_LIMIT must be a whole number, got 'huge'"],
  ])('%j %j', async (args, env, message) => {
    const dir = tempDir();
    const run = await cli([...args, '--data', join(dir, 'db.json')], env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`petstore-sandbox: `);
    expect(run.stderr).toContain(message);
    // Two lines: the reason, then where the options are; not the whole help.
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(message), 'Run petstore-sandbox --help for the options.']);
    expect(run.stderr).not.toContain('Usage: petstore-sandbox');
    // Nothing was started, so nothing was written.
    expect(existsSync(join(dir, 'db.json'))).toBe(false);
  });
});

describe('an option npm kept for itself', { timeout: 180_000 }, () => {
  it('`npm start --port 4011` (no --) says to use `npm start -- --port 4011`, starting nothing', () => {
    // A real npm runs a real start script (the sources through tsx, so no build is needed): npm keeps --port and passes 4011 on.
    const dir = tempDir();
    const script = `node --import ${import.meta.resolve('tsx')} ${join(ROOT, 'src', 'bin.ts')} --data ${join(dir, 'db.json')}`;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npm-start-check', version: '1.0.0', scripts: { start: script } }));
    const run = spawnSync('npm', ['start', '--silent', '--port', '4011'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain('use `npm start -- --port 4011`');
    expect(run.stderr).not.toContain("unknown command '4011'");
    expect(existsSync(join(dir, 'db.json'))).toBe(false);
  });

  it('names each kept option with its value, in `npm run <script>` form for other scripts', async () => {
    const env = { npm_lifecycle_event: 'cli', npm_config_count: 'true' };
    const run = await cli(['seed', '7', '--data', join(tempDir(), 'db.json')], env);
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining('use `npm run cli -- seed --count 7`')]);
  });

  it('a number where a command goes, outside npm, is taken for an option whose name went missing', async () => {
    const run = await cli(['4011', '--data', join(tempDir(), 'db.json')], { npm_lifecycle_event: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command '4011' (an option's value? Options start with --, e.g. --port 4011)");
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
    const record = (id: number, name: string) => encodeRecord(JSON.stringify({ e: 0, pet: { id, name, categoryId: 1 } }));
    const log = `${record(2, 'A')}#garbage#\n${record(3, 'B')}`;
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
    const sandbox = await spawnSandbox(join(dir, 'db.json'), [], { env: { PETSTORE_API_KEYS: 'env-one,env-two' } });
    try {
      const statuses: number[] = [];
      for (const key of ['env-one', 'env-two', 'sandbox-key']) {
        const res = await fetch(`${sandbox.baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
        await expectSpecValid('listPets', { status: res.status, headers: res.headers, body: await res.json() });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 401]);
      expect(await stopSandbox(sandbox)).toEqual({ code: 0, signal: null });
    } finally {
      await killSandbox(sandbox);
    }
    expect(sandbox.output()).toContain('SIGTERM');
  });

  it('--help exits 0 with the usage, --version prints the package version', async () => {
    const help = await cli(['--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: petstore-sandbox')]);
    const version = await cli(['--version']);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect([version.code, version.stdout.trim()]).toEqual([0, pkg.version]);
  });
});
