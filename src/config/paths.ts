import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder, whether this code runs from `src/` (tsx,
 * vitest) or from the bundled `dist/src/bin.js`: the nearest folder upwards that
 * holds `spec/openapi.yaml`.
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'spec', 'openapi.yaml'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('Cannot find spec/openapi.yaml above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  return dir;
}

export const PACKAGE_ROOT = findRoot();
export const SPEC_FILE = join(PACKAGE_ROOT, 'spec', 'openapi.yaml');
/** The control plane's own spec (`/__sandbox`). */
export const CONTROL_SPEC_FILE = join(PACKAGE_ROOT, 'spec', 'sandbox-control.yaml');
export const FIXTURES_DIR = join(PACKAGE_ROOT, 'fixtures');
/** The browser pages (API docs, QA console) as `npm run build` writes them. */
export const UI_DIR = join(PACKAGE_ROOT, 'dist', 'ui');

/** The sandbox's version, from package.json. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
