/**
 * Every relative link in README.md, src/README.md and docs/ leads somewhere: to a file of
 * the repository and, with a `#fragment`, to a heading of that file (as
 * GitHub names headings). Links to other sites are not followed.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, docFiles, docText, linksOf, ROOT } from '../support/docs.js';

/** Whether a link leaves the repository (a scheme such as `https:` or `mailto:`). */
const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** What is wrong with one link of `file`, or undefined when it leads somewhere. */
function brokenLink(file: string, target: string): string | undefined {
  const [path = '', fragment] = target.split('#', 2);
  const resolved = path === '' ? file : normalize(join(dirname(file), decodeURI(path)));
  if (resolved.startsWith('..')) return `${target}: outside the repository`;
  if (!existsSync(join(ROOT, resolved))) return `${target}: no file ${resolved}`;
  if (fragment === undefined || fragment === '') return undefined;
  if (!resolved.endsWith('.md') || statSync(join(ROOT, resolved)).isDirectory()) return `${target}: a fragment of a file that has no headings`;
  return anchorsOf(docText(resolved)).has(decodeURIComponent(fragment)) ? undefined : `${target}: no heading #${fragment} in ${resolved}`;
}

describe('links in the documentation', () => {
  const files = docFiles();

  it('covers the README and the docs pages', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/configuration.md');
  });

  it.each(files)('%s: every relative link leads to a file and heading that exist', (file) => {
    const broken = linksOf(docText(file))
      .filter((target) => !external(target))
      .flatMap((target) => brokenLink(file, target) ?? []);
    expect(broken).toEqual([]);
  });
});
