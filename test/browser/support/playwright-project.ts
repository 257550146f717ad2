/**
 * A user's Playwright project around `petstore-sandbox/playwright`, run by
 * the real Playwright CLI in Debian's Chromium: the package bundled as
 * `npm run build` bundles it (the same esbuild options, its own `exports`)
 * into `test-output/<name>/node_modules/petstore-sandbox`, the example's
 * page and server (examples/playwright) as the app under test, and the
 * specs a test writes. Playwright's JSON reporter says what happened.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { packageBundleOptions } from '../../../scripts/server-bundle.mjs';
import { collectOutput, ROOT } from '../../support/spawn.js';
import { CHROMIUM } from './browser.js';

const PLAYWRIGHT_CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const EXAMPLE_SERVER = join(ROOT, 'examples', 'playwright', 'server.js');

/** Bundles the package under `test-output/<name>/` and returns that folder, where the projects go. */
export async function bundlePackage(name: string): Promise<string> {
  const home = join(ROOT, 'test-output', name);
  const pkg = join(home, 'node_modules', 'petstore-sandbox');
  rmSync(home, { recursive: true, force: true });
  await build(packageBundleOptions(ROOT, join(pkg, 'dist')));
  // A package scope of the projects' own: without it, the repository's package.json would be theirs, and Node would
  // resolve `petstore-sandbox/…` to the repository's dist/ (a package may import itself by name) instead of this bundle.
  writeFileSync(join(home, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: unknown };
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'petstore-sandbox', type: 'module', exports }));
  return home;
}

/** A project's config: two workers, the sandbox's global setup, the example's page, the JSON report in `report.json`. */
const config = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 'tests',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  globalSetup: 'petstore-sandbox/playwright/global-setup',
  reporter: [['json', { outputFile: 'report.json' }]],
  webServer: { command: ${JSON.stringify(`node ${EXAMPLE_SERVER}`)}, wait: { stdout: /example page at (?<example_url>http:\\/\\/\\S+)/ } },
  use: { baseURL: process.env.EXAMPLE_URL, launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)} } },
});
`;

/** Writes a project into `home/<name>/` with `specs` (file name to text) as its tests; returns its folder. */
export function writeProject(home: string, name: string, specs: Record<string, string>): string {
  const dir = join(home, name);
  mkdirSync(join(dir, 'tests'), { recursive: true });
  writeFileSync(join(dir, 'playwright.config.js'), config);
  for (const [file, text] of Object.entries(specs)) writeFileSync(join(dir, 'tests', file), text);
  return dir;
}

/** One test's result in Playwright's JSON report. */
export interface ReportedResult {
  status: string;
  parallelIndex: number;
  workerIndex: number;
  attachments: { name: string; contentType: string; body?: string; path?: string }[];
  annotations: { type: string; description?: string }[];
}

/** Each test of the report by title, with its (one) result. */
export interface Reported {
  title: string;
  result: ReportedResult;
}

interface Suite {
  specs?: { title: string; tests: { results: ReportedResult[]; annotations: ReportedResult['annotations'] }[] }[];
  suites?: Suite[];
}

const flatten = (suite: Suite): Reported[] => [
  ...(suite.specs ?? []).flatMap((spec) =>
    spec.tests.map((t) => ({ title: spec.title, result: { ...(t.results[0] as ReportedResult), annotations: t.annotations } })),
  ),
  ...(suite.suites ?? []).flatMap(flatten),
];

/** What a run of Playwright ended with: its exit code, what it printed, and its tests as the JSON report has them. */
export interface PlaywrightRun {
  code: number | null;
  output: string;
  tests: Reported[];
}

/** Runs `playwright test` in `dir` with `env` added (stopped after `timeoutMs`) and reads its report. */
export async function runPlaywright(dir: string, env: Record<string, string> = {}, timeoutMs = 120_000): Promise<PlaywrightRun> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_SANDBOX_')));
  const child = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test'], { cwd: dir, env: { ...base, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...env } });
  const output = collectOutput(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  if (!existsSync(join(dir, 'report.json'))) throw new Error(`Playwright wrote no report (exit code ${code}):\n${output.all()}`);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { suites: Suite[] };
  return { code, output: output.all(), tests: report.suites.flatMap(flatten) };
}
