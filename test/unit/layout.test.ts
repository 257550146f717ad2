/**
 * The claims of src/README.md's "What may touch what", checked on the code: which files may import node:fs, that the
 * engine's folders load no transport, file system or database even through other files (ESLint sees only their direct
 * imports), and that src/ keeps no loose files but its entry points.
 * The lists are read from the README's lines, so the README and this test cannot drift apart.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const README = readFileSync(join(SRC, 'README.md'), 'utf8');
const FS = /^node:fs(\/promises)?$|^fs(\/promises)?$/;
const FORBIDDEN_IN_ENGINE = /^(node:)?(http|https|http2|net|tls|dgram|fs|fs\/promises)$|^express$|^pg$/;

/** The backticked names on the README's line that starts with `label`. */
function listed(label: string): string[] {
  const line = README.split('\n').find((l) => l.startsWith(label));
  if (line === undefined) throw new Error(`src/README.md has no line starting with "${label}"`);
  return [...line.slice(label.length).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(SRC, path)] : [];
  });
}

/** A file's import specifiers; with `values`, only those that load something when it runs (no `import type`, `export type`). */
function importsOf(file: string, values = false): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const statements = [...text.matchAll(/^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)];
  const dynamic = [...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] as string);
  return [...statements.filter((m) => !(values && m[2])).map((m) => m[3] as string), ...dynamic];
}

/** A relative specifier as the src/ file it names, if it names one. */
function target(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const file = relative(SRC, resolve(SRC, dirname(from), spec)).replace(/\.js$/, '.ts');
  return existsSync(join(SRC, file)) ? file : undefined;
}

/** Every package import reachable from `roots` through value imports, each with the chain of files that leads to it. */
function reachable(roots: string[]): { spec: string; chain: string[] }[] {
  const parent = new Map<string, string | undefined>(roots.map((file) => [file, undefined]));
  const queue = [...roots];
  const found: { spec: string; chain: string[] }[] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const spec of importsOf(file, true)) {
      const next = target(file, spec);
      if (next === undefined && !spec.startsWith('.')) {
        const chain = [file];
        for (let up = parent.get(file); up !== undefined; up = parent.get(up)) chain.unshift(up);
        found.push({ spec, chain });
      } else if (next !== undefined && !parent.has(next)) {
        parent.set(next, file);
        queue.push(next);
      }
    }
  }
  return found;
}

const inside = (file: string, places: string[]) => places.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place));

describe('src/README.md: what may touch what', () => {
  it('imports node:fs only in the folders and files it lists', () => {
    const allowed = listed('- `node:fs` is imported only in ');
    expect(allowed.length).toBeGreaterThan(0);
    const offenders = sources(SRC).filter((file) => !inside(file, allowed) && importsOf(file).some((spec) => FS.test(spec)));
    expect(offenders).toEqual([]);
  });

  it("the engine's folders load no transport, file system or database, even through the files they import", () => {
    const line = listed("- The engine's folders");
    const folders = line.filter((name) => name.endsWith('/'));
    const named = line.filter((name) => !name.endsWith('/'));
    expect(folders).toEqual(expect.arrayContaining(['kernel/', 'v1/', 'control/', 'engine/']));
    expect(named).toEqual(expect.arrayContaining(['node:http', 'node:net', 'node:fs', 'express', 'pg']));
    const found = reachable(sources(SRC).filter((file) => folders.some((folder) => file.startsWith(folder))));
    const forbidden = found.filter(({ spec }) => FORBIDDEN_IN_ENGINE.test(spec) || named.includes(spec));
    expect(forbidden.map(({ spec, chain }) => [...chain, spec].join(' -> '))).toEqual([]);
  });

  it('keeps no loose files at the root of src/ but the entry points', () => {
    const entries = listed('- The root of `src/` holds only ');
    const loose = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isFile() && !entries.includes(entry.name));
    expect(loose.map((entry) => entry.name)).toEqual([]);
  });
});
