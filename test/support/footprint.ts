/** What a folder holds, to compare before and after: a start that fails must leave it as it was. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry under `dir`: a file by the hash of its bytes, a folder (`name/`) as `<dir>`. */
export function footprint(dir: string, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(found, { [`${prefix}${name}/`]: '<dir>' }, footprint(path, `${prefix}${name}/`));
    else found[`${prefix}${name}`] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return found;
}
