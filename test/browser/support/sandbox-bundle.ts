/** The browser sandbox (`createBrowserSandbox`) bundled in memory for a test page, as the package's browser build bundles it. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { browserBundleOptions } from '../../../scripts/browser-bundle.mjs';
import { ROOT } from '../../support/spawn.js';

/** The bundle's files by path (`/sandbox.js`...), made under test-output/<name>. */
export async function sandboxBundle(name: string): Promise<Map<string, string>> {
  const dir = join(ROOT, 'test-output', name);
  mkdirSync(dir, { recursive: true });
  const options = browserBundleOptions(ROOT, dir, [{ in: join(ROOT, 'src', 'library', 'browser-sandbox.ts'), out: 'sandbox' }]);
  const result = await build({ ...options, write: false });
  return new Map((result.outputFiles ?? []).map((file) => [file.path.slice(dir.length), file.text]));
}
