/**
 * No two modules reach each other through imports, type-only imports included. ESLint's import-x/no-cycle
 * (eslint.config.js) catches cycles of values but skips `import type`; a cycle of types is still two files that
 * cannot be read, moved or split apart one at a time, so this test walks every import.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['src', 'web', 'contracts', 'scripts'];
const SOURCE = /\.(ts|mts|mjs)$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return SOURCE.test(entry.name) && !/\.d\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in the sources. */
function fileOf(from: string, specifier: string): string | undefined {
  const path = resolve(dirname(from), specifier);
  return [path, path.replace(/\.js$/, '.ts'), path.replace(/\.mjs$/, '.mts')].find((p) => SOURCE.test(p) && existsSync(p));
}

/** Each source file and the source files it imports or re-exports, statically or dynamically, values or types. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.filter(({ fileName }) => fileName.startsWith('.')).map(({ fileName }) => fileOf(file, fileName));
      return [file, [...new Set(targets.filter((t): t is string => t !== undefined))]];
    }),
  );
}

/** The strongly connected components with more than one file (Tarjan): each is a cycle, or several tied together. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['/a.ts', '/b.ts', '/c.ts']]);
  });

  it('form no cycle in src/, ui/, contracts/ or scripts/, type-only imports included', () => {
    const files = FOLDERS.flatMap((folder) => sources(join(ROOT, folder)));
    expect(files.length).toBeGreaterThan(100);
    expect(cycles(importGraph(files)).map((cycle) => cycle.map((file) => relative(ROOT, file)))).toEqual([]);
  });
});
