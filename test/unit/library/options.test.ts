import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/error.js';
import { configOf, type CreateSandboxOptions } from '../../../src/library/options.js';
import { configRefusal } from '../../support/config-refusal.js';

/** The refusal of options given to createSandbox (as configOf checks them before anything starts). */
const refusal = (options: object): string => configRefusal(() => configOf(options as CreateSandboxOptions)).message;

describe("a library sandbox's options, refused in its own words", () => {
  it.each([
    // The option's name as the caller wrote it: no flag, no variable (the library reads none).
    [{ seed: 'abc' }, "seed must be a whole number, got 'abc'"],
    [{ count: -1 }, "count must be between 0 and 1000000, got '-1'"],
    [{ mode: 'mock' }, "mode must be one of stateful, example, dynamic, proxy, got 'mock'"],
    [{ mode: 'proxy' }, 'mode proxy needs options.upstream: the base address of a deployment, ending in /v1'],
    [{ apiKeys: ['has space'] }, 'apiKeys: key 1 is not a valid bearer token (letters, digits and -._~+/, optionally ending in =)'],
    [{ allowedHosts: ['a b'] }, 'allowedHosts: entry 1 is not a host name (example.com, .example.com or *)'],
    [{ options: { 'journal-size': 'lots' } }, "options['journal-size'] must be a whole number, got 'lots'"],
    [{ options: { 'open-keys': 'maybe' } }, "options['open-keys'] must be true or false, got 'maybe'"],
    // Unknown keys, with the nearest known one.
    [{ prot: 4011 }, "unknown option 'prot' (did you mean port?)"],
    [
      { persist: true },
      "persist keeps a browser sandbox's pets in IndexedDB, and this sandbox runs on Node: give store a data file (store: './data/db.json') to keep them across runs",
    ],
    [{ apikeys: ['k'] }, "unknown option 'apikeys' (did you mean apiKeys?)"],
    [{ nothingLikeIt: 1 }, "unknown option 'nothingLikeIt'"],
    [{ options: { 'journl-size': 5 } }, "unknown option options['journl-size'] (did you mean options['journal-size']?)"],
    [{ options: { upstram: 'x' } }, 'unknown option options.upstram (did you mean options.upstream?)'],
    // Nothing silently ignored or replaced.
    [{ apiKeys: [] }, "apiKeys is empty: no client could be answered. Give at least one key, or leave apiKeys out for the default 'sandbox-key'"],
    [{ apiKeys: ['k', ' '] }, 'apiKeys: key 2 is empty'],
    [{ adminToken: '' }, "adminToken is empty: give a token, or leave adminToken out for the default 'sandbox-admin'"],
    [{ options: { port: 4013 } }, 'options.port is an option of its own: give it as port'],
    [{ options: { 'api-keys': 'k' } }, "options['api-keys'] is an option of its own: give it as apiKeys"],
    [
      { options: { data: './db.json' } },
      "options.data is not taken by a library sandbox: a library sandbox's data file is its store option (store: './data/db.json')",
    ],
    [
      { options: { 'log-level': 'debug' } },
      "options['log-level'] is not taken by a library sandbox: a library sandbox logs nothing: its host has a logger of its own",
    ],
    [{ options: { 'ready-file': 'r.json' } }, /^options\['ready-file'\] is not taken by a library sandbox: /],
    [{ options: { 'shutdown-delay': 2 } }, /^options\['shutdown-delay'\] is not taken by a library sandbox: /],
  ])('%o: %s', (options, message) => {
    if (typeof message === 'string') expect(refusal(options)).toBe(message);
    else expect(refusal(options)).toMatch(message);
  });

  it('takes every other option of the command line under options, as its flag would', () => {
    const config = configOf({ seed: 7, apiKeys: ['a', 'b'], options: { 'journal-size': 5, 'open-keys': true, 'quota-pets': 9 } });
    expect(config).toMatchObject({ seed: 7, apiKeys: ['a', 'b'], journalSize: 5, openKeys: true, quotaPets: 9, memory: true, port: 0 });
    expect(configOf({ options: { 'open-keys': false } }).openKeys).toBe(false);
  });

  it('reads no environment variable', () => {
    const saved = process.env.PETSTORE_SEED;
    process.env.PETSTORE_SEED = 'abc';
    try {
      expect(configOf({}).seed).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.PETSTORE_SEED;
      else process.env.PETSTORE_SEED = saved;
    }
  });

  it('refuses with a ConfigError', () => {
    expect(() => configOf({ apiKeys: [] })).toThrow(ConfigError);
  });
});
