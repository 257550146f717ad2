/**
 * Builds the browser pages into dist/ui (`npm run build`, `npm run build:ui`):
 * the scripts bundled and minified by esbuild, the pages and styles copied,
 * Swagger UI's prebuilt bundle and stylesheet copied from swagger-ui-dist.
 * Everything the pages load comes from the sandbox itself: no CDN.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'ui');
const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const copies: [from: string, to: string][] = [
  [join(here, 'docs', 'index.html'), join(out, 'docs', 'index.html')],
  [join(here, 'docs', 'docs.css'), join(out, 'docs', 'docs.css')],
  [join(swagger, 'swagger-ui-bundle.js'), join(out, 'docs', 'swagger-ui-bundle.js')],
  [join(swagger, 'swagger-ui.css'), join(out, 'docs', 'swagger-ui.css')],
  [join(here, 'console', 'index.html'), join(out, 'console', 'index.html')],
  [join(here, 'console', 'console.css'), join(out, 'console', 'console.css')],
];
for (const [from, to] of copies) {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}

await build({
  entryPoints: { 'docs/docs': join(here, 'docs', 'docs.ts'), 'console/console': join(here, 'console', 'main.ts') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  platform: 'browser',
  logLevel: 'warning',
});

if (process.argv.includes('--sizes'))
  for (const file of ['console/console.js', 'docs/docs.js', 'docs/swagger-ui-bundle.js']) console.log(`${file}: ${statSync(join(out, file)).size} bytes`);
