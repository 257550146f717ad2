/**
 * How the package's `petstore-sandbox verify` is bundled (scripts/build.mjs):
 * the checks (contracts/verify-command.ts) as ESM in dist/verify/, Dredd's
 * and Pact's code left to the user's install (optional peer dependencies,
 * imported only when verify runs), and the Dredd hooks as CommonJS files
 * that hold every library they use, since the installed package has neither
 * esbuild to bundle them at run time nor the devDependencies they import.
 */
import { join } from 'node:path';
import { INSTALLED } from './server-bundle.mjs';

/** What the checks import but the package does not bundle: the peers, esbuild (only used from sources), and the package's own dependencies. */
const EXTERNAL = ['dredd', 'dredd/*', '@pact-foundation/pact', 'esbuild', ...INSTALLED];

/** esbuild's options for the checks: one entry, the modules it imports on demand (Dredd's runner, Pact's) in chunks beside it. */
export function verifyBundleOptions(root, outdir) {
  return {
    entryPoints: [{ in: join(root, 'contracts', 'verify-command.ts'), out: 'command' }],
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: EXTERNAL,
    banner: { js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}

/** esbuild's options for the hooks: CommonJS, as Dredd loads them, with `hooks` (Dredd's, handed in by proxyquire) the only import left. */
export function verifyHooksBundleOptions(root, outdir) {
  return {
    entryPoints: {
      hooks: join(root, 'contracts', 'dredd', 'hooks.ts'),
      'validate-hooks': join(root, 'contracts', 'dredd', 'validate-hooks.ts'),
      'spec-hooks': join(root, 'contracts', 'dredd', 'spec-hooks.ts'),
    },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['hooks'],
    logLevel: 'warning',
  };
}
