/**
 * The memory store needs no file system, database or web framework: what
 * its backend loads, followed through every import that stays at run time,
 * reaches none of them. The library's default store (and a later browser
 * build) rests on this.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../support/spawn.js';

const FORBIDDEN = /^(node:)?(fs|fs\/promises|path|net|http|https|child_process|worker_threads)$|^(pg|express|lowdb|lowdb\/.*)$/;

/** Every package or built-in module that `entry` loads at run time (type-only imports are erased), with who loads it. */
function runtimeImports(entry: string): Map<string, string> {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const node of source.statements) {
      const from =
        ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly ? node.moduleSpecifier
        : ts.isExportDeclaration(node) && !node.isTypeOnly ? node.moduleSpecifier
        : undefined;
      if (!from || !ts.isStringLiteral(from)) continue;
      if (from.text.startsWith('.')) visit(resolve(dirname(file), from.text.replace(/\.js$/, '.ts')));
      else found.set(from.text, file.slice(ROOT.length));
    }
  };
  visit(join(ROOT, entry));
  return found;
}

describe('the memory store', () => {
  it('loads no file system, network, database or web framework module', () => {
    const imports = runtimeImports('src/store/memory/backend.ts');
    expect([...imports].filter(([name]) => FORBIDDEN.test(name))).toEqual([]);
    // The walk does reach the shared rules and the store's own files.
    expect(imports.get('@noble/hashes/hmac.js')).toBe('src/store/workspace-id.ts');
  });
});
