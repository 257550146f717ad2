/**
 * The size a page pays for `petstore-sandbox/msw` in a browser: the browser
 * build (dist/browser/msw.js and its chunks, as `npm run build` writes them;
 * MSW itself is the user's own and not counted), gzipped as a web server
 * sends it (zlib's default level), against a budget.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { maxTarget, type Measure, type Target } from './report.js';

/**
 * The budget, gzipped. The bundle is the whole engine: Ajv and the compiled
 * specs, the control plane, Faker's pet generation (its English pet names
 * only) and the specs and fixture sets themselves; about 144 KB when it was
 * set, so a growth of a fifth fails the target.
 */
export const BROWSER_BUNDLE_BUDGET_KB = 175;

/** Gzipped KB of the browser build under `dist`, and its target. */
export function browserBundleSize(dist: string): { measure: Measure; target: Target } {
  const dir = join(dist, 'browser');
  const chunks = existsSync(join(dir, 'chunks')) ? readdirSync(join(dir, 'chunks')).map((name) => join(dir, 'chunks', name)) : [];
  const files = [join(dir, 'msw.js'), ...chunks.filter((file) => file.endsWith('.js'))];
  const kb = files.reduce((sum, file) => sum + gzipSync(readFileSync(file)).length, 0) / 1024;
  const name = `browser build of petstore-sandbox/msw, gzipped (${files.length} file${files.length === 1 ? '' : 's'}, MSW not counted)`;
  return { measure: { name, value: Math.round(kb * 10) / 10, unit: 'KB' }, target: maxTarget('browser bundle, gzipped', kb, BROWSER_BUNDLE_BUDGET_KB, 'KB') };
}
