/**
 * The committed lock file describes package.json as it is: `npm install` on
 * a fresh clone must not rewrite it (the working tree stays clean), and `npm
 * ci` installs what package.json asks for. npm copies the root package's
 * dependency fields into the lock's root entry; a field edited in
 * package.json alone (a peer dependency added by hand) leaves them apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spawn.js';

const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'engines', 'bin'] as const;

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Record<string, unknown>> };

describe('package-lock.json', () => {
  it.each(FIELDS)("holds package.json's %s in its root entry", (field) => {
    expect(lock.packages['']?.[field]).toEqual(manifest[field]);
  });
});
