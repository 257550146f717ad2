import { readFileSync } from 'node:fs';

/** The project's README, as the tests that keep it in step with the code read it. */
export const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/**
 * The body rows of the first Markdown table under `heading` (e.g. `### Errors`),
 * each as its trimmed cells. Throws when the section or its table is missing,
 * so a renamed heading fails the test that reads it instead of passing empty.
 */
export function readmeTable(heading: string, text = README): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`README has no section '${heading}'`);
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
  if (rows.length < 3) throw new Error(`README section '${heading}' has no table`);
  // The header row and the |---| row are not data.
  return rows.slice(2);
}
