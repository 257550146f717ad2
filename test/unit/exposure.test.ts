/**
 * The rule that refuses to expose the documented default secrets beyond
 * this machine, on configurations as loadConfig builds them.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { checkExposure, isLoopbackHost } from '../../src/config/exposure.js';
import { configRefusal as refusal } from '../support/config-refusal.js';

const load = (argv: string[]) => loadConfig(argv, {}).config;

describe('exposure beyond this machine', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['128.0.0.1', false],
    ['sandbox.internal', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  const secrets = ['--admin-token', 'private-admin', '--api-keys', 'private-key'];
  it('is allowed with secrets of its own', () => {
    expect(() => checkExposure(load(['--host', '0.0.0.0', ...secrets]))).not.toThrow();
    expect(() => checkExposure(load([]))).not.toThrow();
  });

  it.each([
    [['--api-keys', 'private-key'], 'admin token', ['--admin-token-file', 'PETSTORE_ADMIN_TOKEN']],
    [['--admin-token', 'private-admin', '--api-keys', 'private-key,sandbox-key'], 'API keys', ['--api-keys-file', 'PETSTORE_API_KEYS']],
  ])('is refused while a documented default remains: %j', (argv, which, how) => {
    const message = refusal(() => checkExposure(load(['--host', '0.0.0.0', ...argv]))).message;
    expect(message).toContain(`the ${which} `);
    for (const way of how) expect(message).toContain(way);
    expect(message).not.toMatch(/private-/);
  });
});
