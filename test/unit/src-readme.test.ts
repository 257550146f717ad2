/** src/README.md is the map of the code: it names every source file, and names no file that is gone. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(SRC, path)] : [];
  });
}

describe('src/README.md', () => {
  const readme = readFileSync(join(SRC, 'README.md'), 'utf8');
  const named = new Set([...readme.matchAll(/`([a-z0-9/.-]+\.ts)`/g)].map((m) => m[1] as string));

  it('names every source file', () => {
    expect(sources(SRC).filter((file) => !named.has(file))).toEqual([]);
  });

  it('names only files that exist', () => {
    const files = new Set(sources(SRC));
    expect([...named].filter((file) => !files.has(file))).toEqual([]);
  });
});
