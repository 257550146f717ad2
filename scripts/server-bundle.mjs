/**
 * How the sandbox is bundled by esbuild, shared by the build
 * (scripts/build.mjs) and the tests that bundle a variant of the server
 * (test/support/bundle.ts), so the two cannot drift apart.
 */
import { join } from 'node:path';

/** The package's entries: the executable, and the modules `package.json`'s `exports` names (ESM only). */
const ENTRIES = [
  { in: 'src/bin.ts', out: 'src/bin' },
  { in: 'src/index.ts', out: 'index' },
  { in: 'src/middleware.ts', out: 'middleware' },
  { in: 'src/cli.ts', out: 'cli' },
  { in: 'src/playwright/index.ts', out: 'playwright' },
  { in: 'src/playwright/global-setup.ts', out: 'playwright-global-setup' },
  { in: 'src/msw.ts', out: 'msw' },
  { in: 'src/vitest/index.ts', out: 'vitest' },
  { in: 'src/vitest/global-setup.ts', out: 'vitest-global-setup' },
  { in: 'src/vitest/setup.ts', out: 'vitest-setup' },
  { in: 'src/testcontainers/index.ts', out: 'testcontainers' },
];

/**
 * The optional peers a server uses, loaded on first use (src/config/optional-peers.ts holds their versions):
 * the Dockerfile installs them beside the package (scripts/server-peers.mjs).
 */
export const SERVER_PEERS = [
  '@stoplight/prism-http',
  '@stoplight/prism-core',
  'pg',
  '@modelcontextprotocol/sdk',
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/semantic-conventions',
];

/**
 * OpenTelemetry's API stays in the bundle although it is a peer of the tracing: prom-client requires it in
 * every sandbox, traced or not. The SDK's installed packages bring their own copy; the API's copies share
 * their keys (`Symbol.for`), so a span set in a context by one is found by the other.
 */
const BUNDLED_API = '@opentelemetry/api';

/**
 * What the package leaves to installs instead of bundling: its dependencies, which load files of their own
 * at run time (Faker's locales, yaml), and the optional peers a feature loads on first use (Prism, pg, the
 * MCP SDK, OpenTelemetry's; src/config/optional-peers.ts). The verify bundle leaves them out too.
 */
export const INSTALLED = [...SERVER_PEERS.filter((name) => name !== BUNDLED_API).flatMap((name) => [name, `${name}/*`]), '@faker-js/faker', 'yaml'];

/** What every bundle shares; the installed libraries stay outside it, and so do the test runners the package plugs into (the user's own copy runs). */
const COMMON = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: [...INSTALLED, '@playwright/test', 'msw', 'msw/*', 'vitest', 'vitest/*', 'testcontainers'],
  banner: { js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);" },
  logLevel: 'warning',
};

/** esbuild's options for `src/bin.ts` under `root` alone, as one file written to `outfile` (the tests' variants). */
export function serverBundleOptions(root, outfile) {
  return { ...COMMON, entryPoints: [join(root, 'src', 'bin.ts')], outfile };
}

/**
 * esbuild's options for the package under `root`, written to `outdir`: each
 * entry a small module, and the code they share in `chunks/`, so that a
 * program importing both `petstore-sandbox` and its middleware runs one
 * engine, not two copies of it.
 */
export function packageBundleOptions(root, outdir) {
  return {
    ...COMMON,
    entryPoints: ENTRIES.map((entry) => ({ in: join(root, entry.in), out: entry.out })),
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  };
}
