#!/usr/bin/env node
/**
 * The package's type declarations, one self-contained `.d.ts` per entry
 * beside its bundle (dist/index.d.ts, dist/middleware.d.ts, dist/cli.d.ts),
 * by dts-bundle-generator: every type of the sources that an entry's API
 * names (the control plane's, generated from spec/sandbox-control.yaml into
 * src/control/schema.d.ts, among them) is written into the file, since an
 * installed package has no src/. Types of the dependencies stay imports of
 * those packages. Part of `npm run build` (so of `npm pack`), not of the
 * build before `npm start`: a start needs no declarations.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Each entry of `package.json`'s `exports`: its source, and where its declarations go. */
const ENTRIES = [
  { source: 'src/index.ts', out: 'dist/index.d.ts' },
  { source: 'src/middleware.ts', out: 'dist/middleware.d.ts' },
  { source: 'src/cli.ts', out: 'dist/cli.d.ts' },
  { source: 'src/playwright/index.ts', out: 'dist/playwright.d.ts' },
  { source: 'src/playwright/global-setup.ts', out: 'dist/playwright-global-setup.d.ts' },
  { source: 'src/msw.ts', out: 'dist/msw.d.ts' },
  { source: 'src/vitest/index.ts', out: 'dist/vitest.d.ts' },
  { source: 'src/vitest/global-setup.ts', out: 'dist/vitest-global-setup.d.ts' },
  { source: 'src/testcontainers/index.ts', out: 'dist/testcontainers.d.ts' },
  { source: 'src/msw-browser.ts', out: 'dist/browser/msw.d.ts' },
];

const texts = generateDtsBundle(
  ENTRIES.map((entry) => ({
    filePath: join(ROOT, entry.source),
    // Keeps `declare module 'vitest'` in the vitest entries (what they provide to Vitest's `inject`, typed), and out of the others.
    output: { noBanner: true, exportReferencedTypes: false, inlineDeclareExternals: entry.out.startsWith('dist/vitest') },
  })),
  { preferredConfigPath: join(ROOT, 'scripts', 'declarations.tsconfig.json') },
);
ENTRIES.forEach((entry, i) => {
  const file = join(ROOT, entry.out);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, texts[i]);
});
// `petstore-sandbox/vitest/setup` is run for its effect and exports nothing; declared so, a TypeScript import of it resolves.
writeFileSync(join(ROOT, 'dist', 'vitest-setup.d.ts'), '/** Run by Vitest before each test file (`test.setupFiles`): exports nothing. */\nexport {};\n');
