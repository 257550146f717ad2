/**
 * The rule that refuses to expose the documented default secrets beyond
 * this machine, on configurations as loadConfig builds them.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkExposure, exposureNotices, isLoopbackHost } from '../../src/config/exposure.js';
import { hostAllowed, hostNameOf } from '../../src/config/allowed-hosts.js';
import { isLoopbackPeer } from '../../src/engine/engine.js';
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

  const secrets = ['--admin-token', 'private-admin-token', '--api-keys', 'private-key'];
  it('is allowed with secrets of its own', () => {
    expect(() => checkExposure(load(['--host', '0.0.0.0', ...secrets]))).not.toThrow();
    expect(() => checkExposure(load([]))).not.toThrow();
  });

  it.each([
    [['--api-keys', 'private-key'], 'admin token', ['--admin-token-file', 'PETSTORE_ADMIN_TOKEN']],
    [['--admin-token', 'private-admin-token', '--api-keys', 'private-key,sandbox-key'], 'API keys', ['--api-keys-file', 'PETSTORE_API_KEYS']],
  ])('is refused while a documented default remains: %j', (argv, which, how) => {
    const message = refusal(() => checkExposure(load(['--host', '0.0.0.0', ...argv]))).message;
    expect(message).toContain(`the ${which} `);
    for (const way of how) expect(message).toContain(way);
    expect(message).not.toMatch(/private-/);
  });

  it('is refused with an admin token under 16 characters, which is only warned of on loopback', () => {
    const short = ['--admin-token', 'private-admin', '--api-keys', 'private-key'];
    const message = refusal(() => checkExposure(load(['--host', '0.0.0.0', ...short]))).message;
    expect(message).toContain('shorter than 16 characters');
    expect(message).not.toMatch(/private-/);
    expect(() => checkExposure(load(short))).not.toThrow();
    expect(exposureNotices(load(short))).toEqual([expect.stringContaining('shorter than 16 characters')]);
    expect(exposureNotices(load(secrets))).toEqual([]);
    expect(exposureNotices(load([]))).toEqual([]);
  });

  it('warns of a secret file every user may read, naming the file, never its content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exposure-'));
    try {
      const token = join(dir, 'token');
      writeFileSync(token, 'a-private-admin-token-of-its-own\n', { mode: 0o644 });
      chmodSync(token, 0o644);
      const keys = join(dir, 'keys');
      writeFileSync(keys, 'a-private-key\n');
      chmodSync(keys, 0o600);
      const notices = exposureNotices(load(['--admin-token-file', token, '--api-keys-file', keys]));
      expect(notices).toEqual([expect.stringContaining(`--admin-token-file '${token}' can be read by every user`)]);
      expect(notices.join()).not.toContain('a-private');
      chmodSync(token, 0o640);
      expect(exposureNotices(load(['--admin-token-file', token, '--api-keys-file', keys]))).toEqual([]);
      chmodSync(keys, 0o604);
      expect(exposureNotices(load(['--admin-token-file', token, '--api-keys-file', keys]))).toEqual([expect.stringContaining('--api-keys-file')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the Host allow-list and the loopback peer', () => {
  it.each([
    ['localhost:4010', 'localhost'],
    ['LocalHost', 'localhost'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['[::1]:4010', '[::1]'],
    ['api.example.com.', 'api.example.com.'],
    ['a b', undefined],
    ['evil.com/x', undefined],
    ['user@evil.com', undefined],
    ['', undefined],
  ])('the host name of %j is %j', (host, name) => {
    expect(hostNameOf(host)).toBe(name);
  });

  it.each([
    ['localhost', [], true],
    ['app.localhost', [], true],
    ['10.0.0.5', [], true],
    ['[2001:db8::1]', [], true],
    ['sandbox.internal', [], true],
    ['attacker.example', [], false],
    ['localhost.attacker.example', [], false],
    ['api.example.test', ['.example.test'], true],
    ['example.test', ['.example.test'], true],
    ['badexample.test', ['.example.test'], false],
    ['exact.test', ['exact.test'], true],
    ['sub.exact.test', ['exact.test'], false],
    ['anything.at.all', ['*'], true],
    ['attacker.example.', [], false],
  ])('%s with allowed %j: %s (the sandbox listens on sandbox.internal)', (name, allowed, ok) => {
    expect(hostAllowed(name, 'sandbox.internal', allowed)).toBe(ok);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.3.2.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['', true],
    ['203.0.113.7', false],
    ['::ffff:10.0.0.1', false],
    ['fe80::1', false],
    ['1.127.0.0', false],
  ])('peer %j is loopback: %s', (peer, loopback) => {
    expect(isLoopbackPeer(peer)).toBe(loopback);
  });

  it('refuses an --allowed-hosts entry that is no host name, by position', () => {
    expect(load(['--allowed-hosts', 'Example.COM, .corp.test,*']).allowedHosts).toEqual(['example.com', '.corp.test', '*']);
    expect(refusal(() => load(['--allowed-hosts', 'ok.test,http://bad.test'])).message).toContain('entry 2 is not a host name');
  });
});
