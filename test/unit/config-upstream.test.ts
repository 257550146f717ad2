import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { configRefusal } from '../support/config-refusal.js';

const load = (argv: string[], env: Record<string, string> = {}) => loadConfig(argv, env).config;

describe('proxy mode options', () => {
  it('keep an upstream without its trailing slash, the key and the timeout', () => {
    const config = load(['--mode', 'proxy', '--upstream', 'https://staging.example.com/api/v1/', '--upstream-key', 'k-1', '--upstream-timeout', '5']);
    expect(config).toMatchObject({ mode: 'proxy', upstream: 'https://staging.example.com/api/v1', upstreamKey: 'k-1', upstreamTimeoutMs: 5000 });
  });

  it('are read from the environment too, and an upstream alone changes no mode', () => {
    const config = load([], { PETSTORE_UPSTREAM: 'http://127.0.0.1:9000/v1', PETSTORE_UPSTREAM_KEY: 'k' });
    expect(config).toMatchObject({ mode: 'stateful', upstream: 'http://127.0.0.1:9000/v1', upstreamKey: 'k', upstreamTimeoutMs: 30_000 });
  });

  it('default to no upstream', () => {
    const config = load([]);
    expect(config.upstream).toBeUndefined();
    expect(config.upstreamKey).toBeUndefined();
  });

  it.each([
    ['proxy mode without an upstream', ['--mode', 'proxy'], /--mode proxy needs --upstream/],
    ['an upstream not ending in /v1', ['--upstream', 'https://staging.example.com/'], /must be an http\(s\) address ending in \/v1/],
    ['an upstream that is no address', ['--upstream', 'staging/v1'], /ending in \/v1/],
    ['an upstream of another scheme', ['--upstream', 'ftp://example.com/v1'], /ending in \/v1/],
    ['an upstream with a query', ['--upstream', 'http://example.com/v1?x=1'], /without query/],
    ['an upstream with credentials', ['--upstream', 'http://u:p@example.com/v1'], /credentials/],
    ['a key without an upstream', ['--upstream-key', 'k'], /^--upstream-key needs --upstream \(or PETSTORE_UPSTREAM\)$/],
    ['a key that is no bearer token', ['--upstream', 'http://example.com/v1', '--upstream-key', 'a b'], /must be a bearer token/],
    ['a timeout of 0', ['--upstream', 'http://example.com/v1', '--upstream-timeout', '0'], /--upstream-timeout/],
  ])('refuse %s', (_name, argv, message) => {
    expect(configRefusal(() => load(argv)).message).toMatch(message);
  });
});
