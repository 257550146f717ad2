/**
 * How the server is bundled into one ESM file, shared by the build
 * (scripts/build.mjs) and the tests that bundle a variant of it
 * (test/support/bundle.ts), so the two cannot drift apart.
 */
import { join } from 'node:path';

/** esbuild's options for `src/bin.ts` under `root`, written to `outfile`; the libraries that load files of their own at run time stay outside it. */
export function serverBundleOptions(root, outfile) {
  return {
    entryPoints: [join(root, 'src', 'bin.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: ['@stoplight/*', '@faker-js/faker', 'yaml'],
    banner: { js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}
