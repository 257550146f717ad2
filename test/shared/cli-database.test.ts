/**
 * The QA commands on a PostgreSQL database (`--store postgres://…`) name
 * what they worked on: the database (host:port/name) and its user, never
 * a data file and never the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/spawn.js';
import { createDatabase, postgresUrl } from '../support/postgres.js';
import { postgresForFile } from '../support/shared-sandboxes.js';

let server: Awaited<ReturnType<typeof postgresForFile>>;
let url: string;
let database: string;

beforeAll(async () => {
  server = await postgresForFile();
  const name = await createDatabase(server.port);
  url = postgresUrl(server.port, name);
  database = `127.0.0.1:${server.port}/${name}`;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const PASSWORD = decodeURIComponent(new URL(postgresUrl(1, 'x')).password);
const cli = (...args: string[]) => runCli([...args, '--store', url, '--api-keys', 'key-a,key-b']);

describe('QA commands on --store postgres://…', { timeout: 120_000 }, () => {
  it('reset and load answer with the database and its user, not a file, and never the password', async () => {
    const reset = await cli('reset', '--count', '3');
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout)).toEqual({ database, user: 'postgres', count: 3, nextId: 4 });
    const load = await cli('load', 'every-status');
    expect(load.code).toBe(0);
    expect(JSON.parse(load.stdout)).toMatchObject({ database, user: 'postgres' });
    for (const out of [reset, load]) expect(out.stdout + out.stderr).not.toContain(PASSWORD);
  });

  it('journal says the journal is in a running sandbox, naming the database, not a data file', async () => {
    const journal = await cli('journal');
    expect(journal.code).toBe(1);
    expect(journal.stderr).toContain(`not in the database ${database} (user postgres): pass --url of a sandbox`);
    expect(journal.stderr).not.toContain('db.json');
    expect(journal.stderr).not.toContain(PASSWORD);
  });

  it('refusals name the command line’s flags: --to, --key, --append', async () => {
    const target = await cli('copy', '--to', 'key-zzz');
    expect([target.code, target.stderr]).toEqual([1, expect.stringContaining('--to is not one of the configured API keys')]);
    const source = await cli('copy', '--to', 'key-b', '--key', 'key-zzz');
    expect([source.code, source.stderr]).toEqual([1, expect.stringContaining('--key is not one of the configured API keys')]);
    const clash = await cli('load', 'every-status', '--append');
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('load without --append (it replaces the pets) or use other ids');
    expect(clash.stderr).not.toContain('"mode"');
  });
});
