/** What a folder holds, to compare before and after: a start that fails must leave it as it was. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

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

/**
 * A port another program listens on, for the file's tests: taken before
 * them, let go after them. Read `port()` inside a test.
 */
export function occupiedPort(): { port: () => number } {
  let taken: Server | undefined;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken?.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => (taken ? taken.close(() => resolve()) : resolve())));
  return { port: () => (taken?.address() as { port: number }).port };
}
