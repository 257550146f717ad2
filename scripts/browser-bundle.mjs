/**
 * How the browser's build of `petstore-sandbox/msw` is bundled (esbuild,
 * platform browser, ESM, MSW external), shared by the build
 * (scripts/build.mjs), the bundle test (test/unit/browser-bundle.test.ts)
 * and the bench's size row, so the three cannot drift apart. Two swaps make
 * the engine's Node-only loaders browser ones:
 * - a module `x.ts` with a `x.browser.ts` beside it is replaced by that one
 *   (Faker's English build, imported statically);
 * - `src/library/embedded.ts`, which reads the specs and fixture sets from
 *   their files, and `src/store/pet-names.ts`, which reads Faker's English
 *   pet names, are replaced by modules with their values written in, made
 *   here at build time (nothing generated is kept in the repository).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { faker } from '@faker-js/faker/locale/en';
import { parse } from 'yaml';

/** The browser entry, and where its bundle goes under the output folder. */
export const BROWSER_ENTRY = { in: 'src/msw-browser.ts', out: 'msw' };

/** The specs (as JSON), the fixture sets (as texts, by name) and the version, as one module. */
function embeddedModule(root) {
  const fixturesDir = join(root, 'fixtures');
  const fixtures = Object.fromEntries(
    readdirSync(fixturesDir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.slice(0, -5), readFileSync(join(fixturesDir, file), 'utf8')]),
  );
  const sources = {
    spec: parse(readFileSync(join(root, 'spec', 'openapi.yaml'), 'utf8')),
    controlSpec: parse(readFileSync(join(root, 'spec', 'sandbox-control.yaml'), 'utf8')),
    fixtures,
    version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
  };
  // Parsed anew for each sandbox, as the Node library reads its files for each: no two sandboxes share a document.
  return `const TEXT = ${JSON.stringify(JSON.stringify(sources))};\nexport function embeddedSources() {\n  return JSON.parse(TEXT);\n}\n`;
}

/** The pet names of Faker's English locale, the only part of it the seeded pets use. */
const petNamesModule = () => `const NAMES = ${JSON.stringify(faker.definitions.animal.pet_name)};\nexport function petNames() {\n  return NAMES;\n}\n`;

/** The esbuild plugin of the swaps. */
export function browserSwaps(root) {
  const generated = new Map([
    [join(root, 'src', 'library', 'embedded.ts'), () => embeddedModule(root)],
    [join(root, 'src', 'store', 'pet-names.ts'), petNamesModule],
  ]);
  return {
    name: 'petstore-browser-swaps',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
        const file = join(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
        if (generated.has(file)) return { path: file, namespace: 'petstore-generated' };
        const swap = file.replace(/\.ts$/, '.browser.ts');
        return existsSync(swap) ? { path: swap } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'petstore-generated' }, (args) => ({ contents: generated.get(args.path)(), loader: 'js', resolveDir: root }));
    },
  };
}

/** esbuild's options for a browser bundle of `entryPoints` (the package's, or a test's) under `root`, written to `outdir`. */
export function browserBundleOptions(root, outdir, entryPoints = [{ in: join(root, BROWSER_ENTRY.in), out: BROWSER_ENTRY.out }]) {
  return {
    entryPoints,
    outdir,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // MSW is the user's own copy (an optional peer), whose worker their setupWorker starts.
    external: ['msw', 'msw/*'],
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    metafile: true,
    plugins: [browserSwaps(root)],
    logLevel: 'warning',
  };
}
