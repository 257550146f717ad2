/**
 * The sandbox bundled as `npm run build` bundles it (esbuild, the same
 * options), into `test-output/`, optionally with a source file changed on
 * the way: how a test runs a build that lacks one safeguard, to show that
 * it notices, without any switch for it in the product.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { serverBundleOptions } from '../../scripts/server-bundle.mjs';
import { ROOT } from './spawn.js';

/** A change to one source file: `from` must occur in it exactly once. */
export interface SourcePatch {
  /** Relative to the repository, e.g. `src/store/file/durable-entries.ts`. */
  file: string;
  from: string;
  to: string;
}

/** An esbuild plugin that loads `patch.file` with its change made. */
export function patching(patch: SourcePatch): Plugin {
  const path = join(ROOT, patch.file);
  return {
    name: 'patch',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path !== path) return undefined;
        const text = readFileSync(path, 'utf8');
        const found = text.split(patch.from).length - 1;
        if (found !== 1) throw new Error(`${patch.file} holds the text to patch ${found} times, not once: the patch is out of date`);
        return { contents: text.replace(patch.from, patch.to), loader: 'ts' };
      });
    },
  };
}

/** Bundles `src/bin.ts` to `test-output/<name>/bin.js` and returns that path. */
export async function bundleSandbox(name: string, patch?: SourcePatch): Promise<string> {
  const dir = join(ROOT, 'test-output', name);
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'bin.js');
  await build({ ...serverBundleOptions(ROOT, outfile), plugins: patch ? [patching(patch)] : [] });
  return outfile;
}
