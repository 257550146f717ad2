/**
 * The project's Markdown documentation (README.md and docs/), as the tests
 * that keep it in step with the code and with itself read it. Parsed with
 * markdown-it, headings turned into anchors with github-slugger: the same
 * rules GitHub applies when it shows the files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import MarkdownIt, { type Token } from 'markdown-it';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const markdown = new MarkdownIt({ html: true });

/** A documentation file's text; `path` is relative to the root (`README.md`, `docs/configuration.md`). */
export function docText(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** README.md, src/README.md and every Markdown file under docs/, as paths relative to the root. */
export function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', 'src/README.md', ...walk('docs')].map((path) => relative('.', path));
}

/** Every inline token of the text (links and images sit inside paragraphs, table cells and headings). */
function inlineTokens(text: string): Token[] {
  return markdown.parse(text, {}).flatMap((token) => token.children ?? []);
}

/** The targets of every link and image in the text, in order. */
export function linksOf(text: string): string[] {
  return inlineTokens(text).flatMap((token) => {
    const target =
      token.type === 'link_open' ? token.attrGet('href')
      : token.type === 'image' ? token.attrGet('src')
      : null;
    return target === null ? [] : [String(target)];
  });
}

/** The anchors GitHub gives the text's headings (`## Proxy mode` -> `proxy-mode`, repeats numbered `-1`, `-2`). */
export function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = markdown.parse(text, {});
  const anchors = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const words = (tokens[i + 1]?.children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content);
    anchors.add(slugger.slug(words.join('')));
  });
  return anchors;
}

/** The text outside fenced code, for checks that a name is documented in prose or a table, not only in an example. */
export function proseOf(text: string): string {
  return markdown
    .parse(text, {})
    .filter((token) => token.type === 'inline')
    .map((token) => token.content)
    .join('\n');
}

/**
 * The body rows of the first Markdown table under `heading` (e.g. `## Errors`),
 * each as its trimmed cells. Throws when the section or its table is missing,
 * so a renamed heading fails the test that reads it instead of passing empty.
 */
export function docTable(heading: string, text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`no section '${heading}'`);
  const level = heading.split(' ')[0] ?? '#';
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    const sub = /^(#+) /.exec(line);
    if (sub && (sub[1] ?? '').length <= level.length) break;
    if (line.startsWith('|'))
      rows.push(
        line
          .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
          .split('|')
          .map((cell) => cell.trim()),
      );
    else if (rows.length > 0) break;
  }
  if (rows.length < 3) throw new Error(`section '${heading}' has no table`);
  // The header row and the |---| row are not data.
  return rows.slice(2);
}
