/**
 * The pages that list things list all of them, read from the code that
 * defines them: every flag of the sandbox, of its QA commands and of
 * `npm run verify`, and every PETSTORE_* variable the code reads, on
 * docs/configuration.md; every error code of the catalogue on
 * docs/interface.md; every BENCH_* variable of the bench on its pages.
 * And the README stays short and leads to every page of docs/.
 * A name counts only in prose or a table, not in an example's code block.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERIFY_OPTIONS } from '../../contracts/verify-options.js';
import { COMMAND_OPTIONS } from '../../src/cli/commands.js';
import { DIFF_OPTIONS } from '../../src/cli/diff-command.js';
import { OPTIONS } from '../../src/config/load.js';
import { ERROR_CODES } from '../../src/kernel/errors.js';
import { docFiles, docText, linksOf, proseOf, ROOT } from '../support/docs.js';

/** The text of every TypeScript and JavaScript file under `dirs`, type declarations left out. */
function sourceText(...dirs: string[]): string {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return /\.(ts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
  return dirs
    .flatMap(walk)
    .map((path) => readFileSync(join(ROOT, path), 'utf8'))
    .join('\n');
}

/** The names in `names` that are not written as code (`` `name` ``) in the prose of `page`. */
function missingFrom(page: string, names: readonly string[]): string[] {
  const prose = proseOf(docText(page));
  return names.filter((name) => !new RegExp(`\`[^\`\\n]*${name.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&')}(?![\\w-])[^\`\\n]*\``).test(prose));
}

const flags = (options: object) => Object.keys(options).map((name) => `--${name}`);
const variables = (text: string, prefix: string) => [...new Set(text.match(new RegExp(`\\b${prefix}[A-Z0-9_]*[A-Z0-9]\\b`, 'g')))].sort();

describe('docs/configuration.md', () => {
  it('names every flag of the sandbox, its QA commands and npm run verify, with --help and --version', () => {
    const all = [...flags(OPTIONS), ...flags(COMMAND_OPTIONS), ...flags(DIFF_OPTIONS), ...flags(VERIFY_OPTIONS), '--version', '-h'];
    expect(all.length).toBeGreaterThan(50);
    expect(missingFrom('docs/configuration.md', all)).toEqual([]);
  });

  it('names every PETSTORE_* environment variable the code reads', () => {
    const all = variables(sourceText('src', 'contracts', 'scripts'), 'PETSTORE_');
    expect(all).toContain('PETSTORE_PORT');
    expect(all).toContain('PETSTORE_CONTRACT_KEY');
    expect(missingFrom('docs/configuration.md', all)).toEqual([]);
  });
});

describe('docs/interface.md', () => {
  it('names every error code of the catalogue (src/kernel/errors.ts)', () => {
    const codes = Object.keys(ERROR_CODES);
    expect(codes).toContain('not_found');
    expect(missingFrom('docs/interface.md', codes)).toEqual([]);
  });
});

describe('docs/performance.md and docs/soak.md', () => {
  it('name every BENCH_* variable the bench reads', () => {
    const all = variables(sourceText('test/bench'), 'BENCH_').filter((name) => !name.endsWith('_'));
    expect(all).toContain('BENCH_BIG');
    const missing = missingFrom('docs/performance.md', all);
    expect(missingFrom('docs/soak.md', missing)).toEqual([]);
  });
});

describe('README.md', () => {
  it('fits on a screen or two: at most 250 lines', () => {
    expect(docText('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('and docs/README.md link every page of docs/', () => {
    const pages = docFiles().filter((file) => /^docs\/[^/]+\.md$/.test(file) && file !== 'docs/README.md');
    expect(pages.length).toBeGreaterThan(10);
    const linked = (file: string, prefix: string) => new Set(linksOf(docText(file)).map((target) => `${prefix}${target.split('#')[0] ?? ''}`));
    const fromReadme = linked('README.md', '');
    const fromIndex = linked('docs/README.md', 'docs/');
    expect(pages.filter((page) => !fromReadme.has(page))).toEqual([]);
    expect(pages.filter((page) => !fromIndex.has(page))).toEqual([]);
  });
});
