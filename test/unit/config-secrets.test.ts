/**
 * Secrets from files (`--admin-token-file`, `--api-keys-file` and their
 * variables). Files are read through the injected `readFile`.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { configRefusal as refusal } from '../support/config-refusal.js';

const FILES: Record<string, string> = {
  '/run/secrets/admin': 'file-admin-token\n',
  '/run/secrets/keys': '# CI keys\nci-key-one\n\nci-key-two, ci-key-three # the third\r\nci-key-four\n',
  '/run/secrets/empty': '\n# nothing\n',
  '/run/secrets/bad-key': 'good-key\nsecret with-space\n',
};
const io = {
  readFile(path: string): string {
    const text = FILES[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    return text;
  },
};
const load = (argv: string[], env: Record<string, string> = {}) => loadConfig(argv, env, {}, io).config;

describe('secrets from files', () => {
  it.each([
    [['--admin-token-file', '/run/secrets/admin'], {}],
    [[], { PETSTORE_ADMIN_TOKEN_FILE: '/run/secrets/admin' }],
  ])('the admin token from %j %j, without its trailing newline', (argv, env) => {
    expect(load(argv, env).adminToken).toBe('file-admin-token');
  });

  it.each([
    [['--metrics-token-file', '/run/secrets/admin'], {}],
    [[], { PETSTORE_METRICS_TOKEN_FILE: '/run/secrets/admin' }],
  ])('the metrics token from %j %j, without its trailing newline', (argv, env) => {
    expect(load(argv, env).metricsToken).toBe('file-admin-token');
  });

  it.each([
    [['--api-keys-file', '/run/secrets/keys'], {}],
    [[], { PETSTORE_API_KEYS_FILE: '/run/secrets/keys' }],
  ])('API keys from %j %j: one per line or comma-separated, blank lines and # comments ignored', (argv, env) => {
    expect(load(argv, env).apiKeys).toEqual(['ci-key-one', 'ci-key-two', 'ci-key-three', 'ci-key-four']);
  });

  it('a flag wins over a variable, whichever form either takes', () => {
    expect(load(['--admin-token', 'flag-token'], { PETSTORE_ADMIN_TOKEN_FILE: '/run/secrets/admin' }).adminToken).toBe('flag-token');
    expect(load(['--api-keys-file', '/run/secrets/keys'], { PETSTORE_API_KEYS: 'env-key' }).apiKeys).toHaveLength(4);
  });

  it.each([
    [['--admin-token', 'a-token', '--admin-token-file', '/run/secrets/admin'], {}, '--admin-token and --admin-token-file are both set'],
    [[], { PETSTORE_API_KEYS: 'k', PETSTORE_API_KEYS_FILE: '/run/secrets/keys' }, 'PETSTORE_API_KEYS and PETSTORE_API_KEYS_FILE are both set'],
  ])('a value and a file for one secret in one place is an error: %j %j', (argv, env, message) => {
    expect(refusal(() => load(argv, env)).message).toContain(message);
  });

  it('an unreadable file is named with the reason', () => {
    const error = refusal(() => load(['--admin-token-file', '/run/secrets/missing']));
    expect(error.message).toBe("cannot read --admin-token-file '/run/secrets/missing': ENOENT");
  });

  it('a file without keys, or with a bad one, is refused naming the file and the position, never the content', () => {
    expect(refusal(() => load(['--api-keys-file', '/run/secrets/empty'])).message).toBe("--api-keys-file '/run/secrets/empty' needs at least one key");
    const bad = refusal(() => load([], { PETSTORE_API_KEYS_FILE: '/run/secrets/bad-key' }));
    expect(bad.message).toContain("PETSTORE_API_KEYS_FILE '/run/secrets/bad-key': key 2 is not a valid bearer token");
    expect(bad.message).not.toMatch(/secret with|good-key/);
  });

  it.each([
    [['--api-keys', 'one,two words'], '--api-keys: key 2 is not a valid bearer token', 'two words'],
    [['--admin-token', 'my admin'], '--admin-token must be one valid bearer token', 'my admin'],
  ])('a rejected value is named by its option and position, never echoed: %j', (argv, message, secret) => {
    const error = refusal(() => load(argv));
    expect(error.message).toContain(message);
    expect(error.message).not.toContain(secret);
  });
});
