import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

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
    });
    expect([positionals, help, version]).toEqual([[], false, false]);
  });

  it('is frozen', () => {
    const { config } = load();
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.apiKeys)).toBe(true);
  });
});

describe('each option from its flag and from its environment variable', () => {
  it.each([
    ['port', 'PETSTORE_PORT', '8080', { port: 8080 }],
    ['host', 'PETSTORE_HOST', '0.0.0.0', { host: '0.0.0.0' }],
    ['data', 'PETSTORE_DATA', 'elsewhere/pets.json', { dataFile: resolve('elsewhere/pets.json') }],
    ['seed', 'PETSTORE_SEED', '42', { seed: 42 }],
    ['count', 'PETSTORE_COUNT', '0', { count: 0 }],
    ['api-keys', 'PETSTORE_API_KEYS', 'a-key, b-key', { apiKeys: ['a-key', 'b-key'] }],
    ['admin-token', 'PETSTORE_ADMIN_TOKEN', 'root-token', { adminToken: 'root-token' }],
    ['mode', 'PETSTORE_MODE', 'dynamic', { mode: 'dynamic' }],
    ['cors-origins', 'PETSTORE_CORS_ORIGINS', 'https://a.example,https://b.example', { corsOrigins: ['https://a.example', 'https://b.example'] }],
    ['control-cors-origins', 'PETSTORE_CONTROL_CORS_ORIGINS', 'https://qa.example, http://localhost:3000', { controlCorsOrigins: ['https://qa.example', 'http://localhost:3000'] }],
    ['max-connections', 'PETSTORE_MAX_CONNECTIONS', '50', { maxConnections: 50 }],
    ['body-limit', 'PETSTORE_BODY_LIMIT', '2048', { bodyLimit: 2048 }],
    ['compact-after', 'PETSTORE_COMPACT_AFTER', '50', { compactAfter: 50 }],
    ['journal-memory', 'PETSTORE_JOURNAL_MEMORY', '1048576', { journalMemory: 1048576 }],
  ])('--%s / %s', (flag, env, value, expected) => {
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
    [[], { PETSTORE_PORT: 'abc' }, '--port'],
    [['--seed', '-1'], {}, '--seed'],
    [['--seed', '4294967296'], {}, '--seed'],
    [['--count', 'many'], {}, '--count'],
    [['--mode', 'mocking'], {}, '--mode'],
    [['--api-keys', ','], {}, '--api-keys'],
    [['--api-keys', 'has space'], {}, '--api-keys'],
    [['--api-keys', 'good,bad"quote'], {}, '--api-keys'],
    [['--admin-token', 'has space'], {}, '--admin-token'],
    [['--cors-origins', ' , '], {}, '--cors-origins'],
    [['--control-cors-origins', '*'], {}, '--control-cors-origins'],
    [['--control-cors-origins', 'qa.example'], {}, '--control-cors-origins'],
    [['--control-cors-origins', 'https://qa.example/app'], {}, '--control-cors-origins'],
    [['--max-connections', '0'], {}, '--max-connections'],
    [['--max-connections', 'many'], {}, '--max-connections'],
    [['--body-limit', '10'], {}, '--body-limit'],
    [['--body-limit', 'lots'], {}, '--body-limit'],
    [['--compact-after', '0'], {}, '--compact-after'],
    [['--journal-memory', '32MiB'], {}, '--journal-memory'],
    [['--journal-memory', '-1'], {}, '--journal-memory'],
    [['--host', '  '], {}, '--host'],
    [['--nope'], {}, 'nope'],
    [['--port'], {}, 'port'],
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
