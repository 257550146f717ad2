/**
 * No two modules reach each other through imports, type-only imports included. ESLint's import-x/no-cycle
 * (eslint.config.js) catches cycles of values but skips `import type`; a cycle of types is still two files that
 * cannot be read, moved or split apart one at a time, so this test walks every import. The folders of src/ are
 * layers too: no two folders reach each other, and each imports only the folders src/README.md lists below it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
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

/** The folder of src/ a file is in (`kernel`), or `(root)` for the entry points at its top. */
const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? '(root)' : (parts[0] as string);
};

/** The graph of src/'s folders: one folder imports another when any file of it imports any file of the other. */
function folderGraph(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    if (!file.startsWith(SRC)) continue;
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) if (target.startsWith(SRC) && folderOf(target) !== from) edges.add(folderOf(target));
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

/** The layers src/README.md names, lowest first (the backticked folders on its line "- Folders as layers, lowest first: "), then the entry points. */
function layers(): string[] {
  const label = '- Folders as layers, lowest first: ';
  const line = readFileSync(join(SRC, 'README.md'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(label));
  if (line === undefined) throw new Error(`src/README.md has no line starting with "${label}"`);
  return [...[...line.matchAll(/`([^`]+)`/g)].map((m) => (m[1] as string).replace(/\/$/, '')), '(root)'];
}

/** Every import of a folder from one not listed above it, as `from -> to`: none when the folders are layers. */
const upward = (folders: ReadonlyMap<string, readonly string[]>, order: readonly string[]): string[] =>
  [...folders].flatMap(([from, to]) => to.filter((target) => order.indexOf(target) >= order.indexOf(from)).map((target) => `${from} -> ${target}`));

describe('the folders of src/', () => {
  const graph = importGraph(sources(SRC));
  const folders = folderGraph(graph);

  it('form no cycle', () => {
    expect(folders.size).toBeGreaterThan(10);
    expect(cycles(folders)).toEqual([]);
  });

  it('are layers: each imports only folders src/README.md lists below it, and the README lists each once', () => {
    const order = layers();
    expect([...order].sort()).toEqual([...folders.keys()].sort());
    expect(new Set(order).size).toBe(order.length);
    expect(upward(folders, order)).toEqual([]);
  });

  it('and both checks catch an import planted upward, from the kernel into the engine', () => {
    const planted = new Map(graph);
    planted.set(join(SRC, 'kernel/errors.ts'), [...(graph.get(join(SRC, 'kernel/errors.ts')) ?? []), join(SRC, 'engine/engine.ts')]);
    const tied = folderGraph(planted);
    expect(cycles(tied).flat()).toEqual(expect.arrayContaining(['engine', 'kernel']));
    expect(upward(tied, layers())).toContain('kernel -> engine');
  });
});
