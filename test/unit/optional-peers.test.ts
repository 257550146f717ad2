/**
 * The optional peers as src/config/optional-peers.ts knows them: the same
 * names and versions as package.json's peerDependencies (optional, and
 * devDependencies, so a clone has them all), and how a missing one is told
 * from a broken one. The install test (test/package/install.test.ts) sees
 * the messages from the installed package, without the peers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/error.js';
import { importPeer, installCommand, isNotInstalled, MissingPeerError, OPTIONAL_PEERS } from '../../src/config/optional-peers.js';
import { ROOT } from '../support/spawn.js';
import { SERVER_PEERS } from '../../scripts/server-bundle.mjs';

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** A real import's error for a package that is nowhere. */
async function importError(specifier: string): Promise<unknown> {
  try {
    await import(/* @vite-ignore */ specifier);
  } catch (error) {
    return error;
  }
  throw new Error(`${specifier} was found`);
}

describe('the optional peers', () => {
  it("are package.json's optional peerDependencies at the same versions, in devDependencies, not in dependencies", () => {
    for (const [name, range] of Object.entries(OPTIONAL_PEERS)) {
      expect({ peer: manifest.peerDependencies[name], optional: manifest.peerDependenciesMeta[name]?.optional }, name).toEqual({ peer: range, optional: true });
      expect(manifest.devDependencies[name], name).toBe(range);
      expect(manifest.dependencies[name], name).toBeUndefined();
    }
  });

  it('are the peers the bundles leave external and the image installs (scripts/server-bundle.mjs)', () => {
    expect([...SERVER_PEERS].sort()).toEqual(Object.keys(OPTIONAL_PEERS).sort());
  });

  it('the package depends on only what its bundle leaves external and every user needs', () => {
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@faker-js/faker', 'yaml']);
  });

  it('tells a package that is not installed from one that is broken', async () => {
    const missing = await importError('petstore-no-such-package/sub/path.js');
    expect(isNotInstalled(missing, 'petstore-no-such-package')).toBe(true);
    expect(isNotInstalled(missing, 'petstore-no-such')).toBe(false);
    expect(isNotInstalled(await importError('petstore-no-such-package'), 'petstore-no-such-package')).toBe(true);
    expect(isNotInstalled(new SyntaxError("Unexpected token in 'petstore-no-such-package'"), 'petstore-no-such-package')).toBe(false);
  });

  it('names what needs a missing peer and the npm command, as a ConfigError; any other failure passes through', async () => {
    // A package missing whose name only starts with the peer's is not the peer missing.
    const other = await importPeer(['pg'], 'A PostgreSQL store', () => import(/* @vite-ignore */ `${'pg'}-not-here-either`)).catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(MissingPeerError);
    expect((other as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
    const missing = Object.assign(new Error("Cannot find package 'pg' imported from /app/dist/chunks/x.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const error = await importPeer(['pg'], 'A PostgreSQL store', () => Promise.reject(missing)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPeerError);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as MissingPeerError).message).toBe(
      'A PostgreSQL store needs pg, an optional peer dependency of petstore-sandbox, not installed here. Install: npm install --save-dev pg@^8.23.1',
    );
    expect((error as MissingPeerError).install).toBe(installCommand(['pg']));
    const broken = new TypeError('pg is broken');
    await expect(importPeer(['pg'], 'A PostgreSQL store', () => Promise.reject(broken))).rejects.toBe(broken);
  });
});
