import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, OPTIONS } from '../../src/config/load.js';
import { configRefusal } from '../support/config-refusal.js';
import { docTable, docText } from '../support/docs.js';

const load = (argv: string[] = [], env: Record<string, string> = {}) => loadConfig(argv, env);

describe('loadConfig defaults', () => {
  it('match the documented defaults', () => {
    const { config, positionals, help, version } = load();
    expect(config).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      dataFile: resolve('./data/db.json'),
      seed: 1,
      count: 50,
      apiKeys: ['sandbox-key'],
      adminToken: 'sandbox-admin',
      mode: 'stateful',
      corsOrigins: '*',
      controlCorsOrigins: [],
      maxConnections: 1000,
      bodyLimit: 102400,
      journalSize: 200,
      journalMemory: 32 * 1024 * 1024,
      compactAfter: 20000,
      openKeys: false,
      quotaPets: 1_000_000,
      quotaBytes: 128 * 1024 * 1024,
      maxWorkspaces: 1000,
      workspaceIdleMs: 60_000,
      openKeyWorkspaces: 1000,
      openKeyTtlMs: 86_400_000,
      logLevel: 'info',
      logFormat: 'auto',
      metricsToken: undefined,
      shutdownDelayMs: 0,
      maxConnectionsPerClient: 256,
      readyFile: undefined,
      adminTokenFrom: 'default',
    });
    expect([positionals, help, version]).toEqual([[], false, false]);
  });

  it('is frozen', () => {
    const { config } = load();
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.apiKeys)).toBe(true);
  });
});

/** Flag, variable, a value and what it sets. */
const FROM_FLAG_OR_ENV: [string, string, string, Record<string, unknown>][] = [
  ['port', 'PETSTORE_PORT', '8080', { port: 8080 }],
  ['host', 'PETSTORE_HOST', '0.0.0.0', { host: '0.0.0.0' }],
  ['allowed-hosts', 'PETSTORE_ALLOWED_HOSTS', 'sandbox.example.com, .corp.test', { allowedHosts: ['sandbox.example.com', '.corp.test'] }],
  ['data', 'PETSTORE_DATA', 'elsewhere/pets.json', { dataFile: resolve('elsewhere/pets.json') }],
  ['spec', 'PETSTORE_SPEC', 'specs/v2.yaml', { specs: [resolve('specs/v2.yaml')] }],
  ['seed', 'PETSTORE_SEED', '42', { seed: 42 }],
  ['count', 'PETSTORE_COUNT', '0', { count: 0 }],
  ['api-keys', 'PETSTORE_API_KEYS', 'a-key, b-key', { apiKeys: ['a-key', 'b-key'] }],
  ['admin-token', 'PETSTORE_ADMIN_TOKEN', 'root-token', { adminToken: 'root-token' }],
  ['mode', 'PETSTORE_MODE', 'dynamic', { mode: 'dynamic' }],
  ['cors-origins', 'PETSTORE_CORS_ORIGINS', 'https://a.example,https://b.example', { corsOrigins: ['https://a.example', 'https://b.example'] }],
  [
    'control-cors-origins',
    'PETSTORE_CONTROL_CORS_ORIGINS',
    'https://qa.example, http://localhost:3000',
    { controlCorsOrigins: ['https://qa.example', 'http://localhost:3000'] },
  ],
  ['max-connections', 'PETSTORE_MAX_CONNECTIONS', '50', { maxConnections: 50 }],
  ['max-connections-per-client', 'PETSTORE_MAX_CONNECTIONS_PER_CLIENT', '8', { maxConnectionsPerClient: 8 }],
  ['body-limit', 'PETSTORE_BODY_LIMIT', '2048', { bodyLimit: 2048 }],
  ['compact-after', 'PETSTORE_COMPACT_AFTER', '50', { compactAfter: 50 }],
  ['journal-memory', 'PETSTORE_JOURNAL_MEMORY', '1048576', { journalMemory: 1048576 }],
  ['journal-size', 'PETSTORE_JOURNAL_SIZE', '0', { journalSize: 0 }],
  ['quota-pets', 'PETSTORE_QUOTA_PETS', '10', { quotaPets: 10 }],
  ['quota-bytes', 'PETSTORE_QUOTA_BYTES', '4096', { quotaBytes: 4096 }],
  ['max-workspaces', 'PETSTORE_MAX_WORKSPACES', '3', { maxWorkspaces: 3 }],
  ['workspace-idle', 'PETSTORE_WORKSPACE_IDLE', '5', { workspaceIdleMs: 5000 }],
  ['open-key-workspaces', 'PETSTORE_OPEN_KEY_WORKSPACES', '50', { openKeyWorkspaces: 50 }],
  ['open-key-ttl', 'PETSTORE_OPEN_KEY_TTL', '2', { openKeyTtlMs: 2000 }],
  ['upstream', 'PETSTORE_UPSTREAM', 'http://127.0.0.1:9/v1', { upstream: 'http://127.0.0.1:9/v1' }],
  ['upstream-timeout', 'PETSTORE_UPSTREAM_TIMEOUT', '7', { upstreamTimeoutMs: 7000 }],
  ['checkpoint-count', 'PETSTORE_CHECKPOINT_COUNT', '3', { checkpointCount: 3 }],
  ['checkpoint-bytes', 'PETSTORE_CHECKPOINT_BYTES', '65536', { checkpointBytes: 65536 }],
  ['log-level', 'PETSTORE_LOG_LEVEL', 'WARN', { logLevel: 'warn' }],
  ['log-format', 'PETSTORE_LOG_FORMAT', 'json', { logFormat: 'json' }],
  ['metrics-token', 'PETSTORE_METRICS_TOKEN', 'scrape-me', { metricsToken: 'scrape-me' }],
  ['shutdown-delay', 'PETSTORE_SHUTDOWN_DELAY', '5', { shutdownDelayMs: 5000 }],
  ['check-answers', 'PETSTORE_CHECK_ANSWERS', 'sample:10', { checkAnswers: { every: 10, checked: false } }],
  ['ready-file', 'PETSTORE_READY_FILE', 'run/ready.json', { readyFile: resolve('run/ready.json') }],
  ['store', 'PETSTORE_STORE', 'postgres://u:p@db.internal:5432/pets', { postgresUrl: 'postgres://u:p@db.internal:5432/pets' }],
  ['pg-pool-size', 'PETSTORE_PG_POOL_SIZE', '4', { pgPoolSize: 4 }],
  ['database-pooler', 'PETSTORE_DATABASE_POOLER', 'transaction', { databasePooler: 'transaction' }],
  [
    'database-listen-url',
    'PETSTORE_DATABASE_LISTEN_URL',
    'postgres://u:p@db.internal:5432/pets',
    { databaseListenUrl: 'postgres://u:p@db.internal:5432/pets' },
  ],
];

describe('--check-answers', () => {
  it('checks every body but those built from checked values by default; full checks those too, off none', () => {
    expect(load().config.checkAnswers).toEqual({ every: 1, checked: false });
    expect(load(['--check-answers', ' FULL ']).config.checkAnswers).toEqual({ every: 1, checked: true });
    expect(load(['--check-answers', 'off']).config.checkAnswers).toEqual({ every: 0, checked: false });
  });
});

describe('--store', () => {
  it('takes a data file as --data does, and wins over it', () => {
    expect(load(['--store', '/tmp/x/store.json', '--data', '/tmp/y/db.json']).config).toMatchObject({ dataFile: '/tmp/x/store.json', postgresUrl: undefined });
  });

  it('takes postgresql:// as well as postgres://, and leaves the data file as --data says', () => {
    expect(load(['--store', 'postgresql://db/pets', '--data', '/tmp/y/db.json']).config).toMatchObject({
      dataFile: '/tmp/y/db.json',
      postgresUrl: 'postgresql://db/pets',
    });
  });

  it('is the data file by default', () => {
    expect(load().config).toMatchObject({ postgresUrl: undefined, memory: false });
  });

  it('reaches PostgreSQL in session mode by default, with no listen URL of its own', () => {
    expect(load().config).toMatchObject({ databasePooler: 'session', databaseListenUrl: undefined });
    expect(load(['--database-pooler', ' Transaction ']).config.databasePooler).toBe('transaction');
  });

  it('refuses another pooler mode, and a listen URL that is not PostgreSQL, without repeating the URL', () => {
    expect(() => load(['--database-pooler', 'statement'])).toThrow("--database-pooler must be one of session, transaction, got 'statement'");
    expect(() => load([], { PETSTORE_DATABASE_POOLER: 'pgbouncer' })).toThrow("PETSTORE_DATABASE_POOLER must be one of session, transaction, got 'pgbouncer'");
    const refusal = () => load(['--database-listen-url', 'mysql://u:secret@db/pets']);
    expect(refusal).toThrow(ConfigError);
    expect(refusal).toThrow('--database-listen-url must be a URL such as postgres://user:password@host:5432/database');
    expect(refusal).not.toThrow(/secret/);
  });

  it("takes 'memory' (flag or PETSTORE_STORE): no database, and not a data file named memory", () => {
    expect(load(['--store', 'memory', '--data', '/tmp/y/db.json']).config).toMatchObject({ memory: true, postgresUrl: undefined, dataFile: '/tmp/y/db.json' });
    expect(load([], { PETSTORE_STORE: 'memory' }).config).toMatchObject({ memory: true, postgresUrl: undefined });
    expect(load(['--store', './memory.json']).config).toMatchObject({ memory: false, dataFile: resolve('./memory.json') });
  });
});

describe('--spec', () => {
  it('is none by default: the embedded Pet Store', () => {
    expect(load().config.specs).toEqual([]);
  });

  it('is repeatable, in the order given; the variable takes a comma-separated list', () => {
    expect(load(['--spec', 'a.yaml', '--spec', 'b/c.yaml']).config.specs).toEqual([resolve('a.yaml'), resolve('b/c.yaml')]);
    expect(load([], { PETSTORE_SPEC: 'a.yaml, b/c.yaml' }).config.specs).toEqual([resolve('a.yaml'), resolve('b/c.yaml')]);
    expect(load(['--spec', 'x.yaml'], { PETSTORE_SPEC: 'a.yaml' }).config.specs).toEqual([resolve('x.yaml')]);
  });

  it('refuses the same file twice, and an empty value, naming the option', () => {
    expect(() => load(['--spec', 'a.yaml', '--spec', './a.yaml'])).toThrow(`--spec names ${resolve('a.yaml')} twice: give each spec once`);
    expect(() => load(['--spec='])).toThrow('--spec needs a file');
    expect(() => load([], { PETSTORE_SPEC: 'a.yaml,a.yaml' })).toThrow(/^PETSTORE_SPEC names .* twice/);
  });
});

describe('each option from its flag and from its environment variable', () => {
  it('covers every option (the switch, the secret files and the upstream key have tests of their own)', () => {
    const covered = [...FROM_FLAG_OR_ENV.map(([flag]) => flag), 'open-keys', 'api-keys-file', 'admin-token-file', 'metrics-token-file', 'upstream-key'];
    expect(covered.sort()).toEqual(Object.keys(OPTIONS).sort());
    for (const [flag, env] of FROM_FLAG_OR_ENV) expect(OPTIONS[flag as keyof typeof OPTIONS].env).toBe(env);
  });

  it.each(FROM_FLAG_OR_ENV)('--%s / %s', (flag, env, value, expected) => {
    expect(load([`--${flag}`, value]).config).toMatchObject(expected);
    expect(load([], { [env]: value }).config).toMatchObject(expected);
  });

  it('a flag wins over the environment', () => {
    expect(load(['--port', '1234', '--api-keys', 'flag-key'], { PETSTORE_PORT: '4321', PETSTORE_API_KEYS: 'env-key' }).config).toMatchObject({
      port: 1234,
      apiKeys: ['flag-key'],
    });
  });

  it('an empty environment variable means the default', () => {
    expect(load([], { PETSTORE_PORT: '', PETSTORE_API_KEYS: '' }).config).toMatchObject({ port: 4010, apiKeys: ['sandbox-key'] });
  });

  it('* among the CORS origins allows any origin', () => {
    expect(load(['--cors-origins', 'https://a.example,*']).config.corsOrigins).toBe('*');
  });

  it('returns positionals and the help and version switches', () => {
    expect(load(['reset', '--help']).positionals).toEqual(['reset']);
    expect(load(['-h']).help).toBe(true);
    expect(load(['--version']).version).toBe(true);
  });
});

describe('wrong values -> ConfigError naming the option', () => {
  it.each([
    [['--port', 'abc'], {}, '--port'],
    [['--port', '70000'], {}, '--port'],
    [['--port', '-1'], {}, '--port'],
    [['--port', '1.5'], {}, '--port'],
    [[], { PETSTORE_PORT: 'abc' }, 'PETSTORE_PORT'],
    [['--seed', '-1'], {}, '--seed'],
    [['--seed', '4294967296'], {}, '--seed'],
    [['--count', 'many'], {}, '--count'],
    [['--mode', 'mocking'], {}, '--mode'],
    [['--api-keys', ','], {}, '--api-keys'],
    [['--api-keys', 'has space'], {}, '--api-keys'],
    [['--api-keys', 'good,bad"quote'], {}, '--api-keys'],
    [['--admin-token', 'has space'], {}, '--admin-token'],
    [['--metrics-token', 'has space'], {}, '--metrics-token'],
    [['--log-level', 'loud'], {}, '--log-level'],
    [['--log-format', 'xml'], {}, '--log-format'],
    [['--check-answers', 'some'], {}, '--check-answers'],
    [['--check-answers', 'sample:0'], {}, '--check-answers'],
    [['--check-answers', 'sample:1000000'], {}, '--check-answers'],
    [['--shutdown-delay', '-1'], {}, '--shutdown-delay'],
    [['--cors-origins', ' , '], {}, '--cors-origins'],
    [['--control-cors-origins', '*'], {}, '--control-cors-origins'],
    [['--control-cors-origins', 'qa.example'], {}, '--control-cors-origins'],
    [['--control-cors-origins', 'https://qa.example/app'], {}, '--control-cors-origins'],
    [['--max-connections', '0'], {}, '--max-connections'],
    [['--max-connections-per-client', '0'], {}, '--max-connections-per-client'],
    [['--max-connections', 'many'], {}, '--max-connections'],
    [['--body-limit', '10'], {}, '--body-limit'],
    [['--body-limit', 'lots'], {}, '--body-limit'],
    [['--compact-after', '0'], {}, '--compact-after'],
    [['--journal-memory', '32MiB'], {}, '--journal-memory'],
    [['--journal-memory', '-1'], {}, '--journal-memory'],
    [['--host', '  '], {}, '--host'],
    [['--nope'], {}, 'nope'],
    [['--port'], {}, 'port'],
    [['--seed', '1e3'], {}, '--seed'],
    [['--count', '1000001'], {}, '--count'],
    [[], { PETSTORE_MODE: 'mocking' }, 'PETSTORE_MODE'],
    [['--journal-size', '-1'], {}, '--journal-size'],
    [['--journal-size', '100001'], {}, '--journal-size'],
    [['--quota-pets', 'ten'], {}, '--quota-pets'],
    [['--quota-bytes', '-5'], {}, '--quota-bytes'],
    [['--max-workspaces', '0'], {}, '--max-workspaces'],
    [['--workspace-idle', '0'], {}, '--workspace-idle'],
    [['--workspace-idle', '604801'], {}, '--workspace-idle'],
    [['--checkpoint-count', '-1'], {}, '--checkpoint-count'],
    [['--checkpoint-bytes', String(500 * 1024 * 1024 + 1)], {}, '--checkpoint-bytes'],
    [[], { PETSTORE_OPEN_KEYS: 'maybe' }, 'PETSTORE_OPEN_KEYS'],
  ])('%j %j', (argv, env, named) => {
    let thrown: unknown;
    try {
      load(argv, env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toContain(named);
  });
});

describe('every option', () => {
  it('defaults to what OPTIONS documents: setting each variable to its default changes nothing', () => {
    const env = Object.fromEntries(Object.values(OPTIONS).map((o) => [o.env, o.default]));
    // But that the mode was given: on a shared database a given mode is set for all, a default one is not.
    expect({ ...load([], env).config, modeGiven: false }).toEqual(load().config);
  });

  it('is in the table of docs/configuration.md with its variable and default', () => {
    const rows = docTable('# Configuration', docText('docs/configuration.md')).map(([flag = '', env = '', fallback = '']) => [
      flag,
      env,
      fallback.replace(/ \(.*\)$/, ''),
    ]);
    const shown = (value: string) =>
      value === '' ? 'none'
      : value === 'false' ? 'off'
      : `\`${value}\``;
    const documented = Object.entries(OPTIONS).map(([name, o]) => [`\`--${name}\``, `\`${o.env}\``, shown(o.default)]);
    // The page groups options by topic; the order is not compared.
    expect(rows.sort()).toEqual(documented.sort());
  });

  it.each([
    [['--port', '0'], { port: 0 }],
    [['--port', '65535'], { port: 65535 }],
    [['--seed', '4294967295'], { seed: 4294967295 }],
    [['--count', '1000000'], { count: 1_000_000 }],
    [['--body-limit', '1024'], { bodyLimit: 1024 }],
    [['--body-limit', '67108864'], { bodyLimit: 64 * 1024 * 1024 }],
    [['--workspace-idle', '604800'], { workspaceIdleMs: 604_800_000 }],
    [['--port', ' 8080 '], { port: 8080 }],
  ])('takes the bounds of a range: %j', (argv, expected) => {
    expect(load(argv).config).toMatchObject(expected);
  });

  it('reads a relative data path from the working folder and keeps an absolute one', () => {
    expect(load(['--data', 'x/db.json']).config.dataFile).toBe(resolve(process.cwd(), 'x/db.json'));
    expect(load(['--data', '/srv/pets/db.json']).config.dataFile).toBe('/srv/pets/db.json');
  });
});

describe('--open-keys, a switch', () => {
  it.each([
    ['true', true],
    ['YES', true],
    ['on', true],
    ['1', true],
    ['false', false],
    ['no', false],
    [' Off ', false],
    ['0', false],
  ])('PETSTORE_OPEN_KEYS=%s is %s', (value, expected) => {
    expect(load([], { PETSTORE_OPEN_KEYS: value }).config.openKeys).toBe(expected);
  });

  it('is on when the flag is given, whatever the variable says', () => {
    expect(load(['--open-keys']).config.openKeys).toBe(true);
    expect(load(['--open-keys'], { PETSTORE_OPEN_KEYS: 'false' }).config.openKeys).toBe(true);
  });
});

describe('the messages of a ConfigError', () => {
  it.each([
    // A flag's value is named by its flag, a variable's by its variable: each in the words of whoever set it.
    [['--port', 'abc'], {}, "--port must be a whole number, got 'abc'"],
    [[], { PETSTORE_PORT: '70000' }, "PETSTORE_PORT must be between 0 and 65535, got '70000'"],
    [['--seed', 'abc'], { PETSTORE_SEED: '2' }, "--seed must be a whole number, got 'abc'"],
    [[], { PETSTORE_SEED: 'abc' }, "PETSTORE_SEED must be a whole number, got 'abc'"],
    [['--body-limit', '10'], {}, "--body-limit must be between 1024 and 67108864, got '10'"],
    [[], { PETSTORE_OPEN_KEYS: 'maybe' }, "PETSTORE_OPEN_KEYS must be true or false, got 'maybe'"],
    [['--cors-origins', ','], {}, '--cors-origins needs at least one value'],
    [['--mode', 'mocking'], {}, "--mode must be one of stateful, example, dynamic, proxy, got 'mocking'"],
    [[], { PETSTORE_MODE: 'mock' }, "PETSTORE_MODE must be one of stateful, example, dynamic, proxy, got 'mock'"],
    [[], { PETSTORE_LOG_LEVEL: 'loud' }, "PETSTORE_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'"],
    [[], { PETSTORE_ALLOWED_HOSTS: 'a b' }, 'PETSTORE_ALLOWED_HOSTS: entry 1 is not a host name (example.com, .example.com or *)'],
    [['--host', ' '], {}, '--host must not be empty'],
    [['--control-cors-origins', '*'], {}, "--control-cors-origins: '*' is not an origin such as http://localhost:3000 (* is not allowed)"],
    // A default found wrong (proxy mode without an upstream) is named every way it can be set.
    [[], { PETSTORE_MODE: 'proxy' }, 'PETSTORE_MODE proxy needs --upstream (or PETSTORE_UPSTREAM): the base address of a deployment, ending in /v1'],
  ])('%j %j: %s', (argv, env, message) => {
    expect(configRefusal(() => load(argv, env)).message).toBe(message);
  });

  // The command line's own words for what the parser would have said in its own, with the nearest flag for a near miss.
  it.each([
    [['--prot', '4011'], "unknown option '--prot' (did you mean --port?)"],
    [['--journl-size', '5'], "unknown option '--journl-size' (did you mean --journal-size?)"],
    [['--nope'], "unknown option '--nope'"],
    [['-x'], "unknown option '-x'"],
    [['--seed'], "--seed needs a value (one that starts with '-' is given as --seed=<value>)"],
    [['--seed', '--count', '5'], "--seed needs a value (one that starts with '-' is given as --seed=<value>)"],
    [['--open-keys=yes'], '--open-keys takes no value: give it alone to turn it on, leave it out for off'],
    // A negative number is a value, judged by its option's range.
    [['--count', '-1'], "--count must be between 0 and 1000000, got '-1'"],
    [['--count=-1'], "--count must be between 0 and 1000000, got '-1'"],
  ])('%j: %s', (argv, message) => {
    expect(configRefusal(() => load(argv)).message).toBe(message);
  });

  it('a value that starts with - is taken when given with =', () => {
    expect(load(['--api-keys=-key']).config.apiKeys).toEqual(['-key']);
  });
});

describe('options of a sub-command', () => {
  const options = { fixture: { type: 'string' }, append: { type: 'boolean' } } as const;

  it('are parsed alongside and returned in extra, with the positionals', () => {
    const parsed = loadConfig(['load', '--fixture', 'small', '--append', '--port', '9000'], {}, options);
    expect(parsed.extra).toEqual({ fixture: 'small', append: true });
    expect(parsed.positionals).toEqual(['load']);
    expect(parsed.config.port).toBe(9000);
  });

  it('are undefined when not given, and unknown to a call that does not declare them', () => {
    expect(loadConfig([], {}, options).extra).toEqual({ fixture: undefined, append: undefined });
    expect(() => loadConfig(['--fixture', 'small'], {})).toThrow(ConfigError);
  });
});

describe('where the admin token came from (for the start-up line)', () => {
  const io = { readFile: () => 'token-in-a-file\n' };
  it.each([
    [[], {}, 'default'],
    [['--admin-token', 'sandbox-admin'], {}, 'default'],
    [['--admin-token', 'own-token'], {}, '--admin-token'],
    [[], { PETSTORE_ADMIN_TOKEN: 'own-token' }, 'PETSTORE_ADMIN_TOKEN'],
    [['--admin-token-file', '/run/secrets/admin'], {}, "--admin-token-file '/run/secrets/admin'"],
    [[], { PETSTORE_ADMIN_TOKEN_FILE: '/run/secrets/admin' }, "PETSTORE_ADMIN_TOKEN_FILE '/run/secrets/admin'"],
  ])('%j %j: %s, never the token', (argv, env, from) => {
    const config = loadConfig(argv, env, {}, io).config;
    expect(config.adminTokenFrom).toBe(from);
    if (from !== 'default') expect(from).not.toContain(config.adminToken);
  });
});
