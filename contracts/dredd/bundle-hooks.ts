import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../src/config/paths.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The hook sources, type-checked with the rest of the project. */
export const HOOK_SOURCES = {
  /** Creates the condition of each response (key, invalid body or query, missing and existing ids). */
  conditions: here('./hooks.ts'),
  /** Validates each real response against the spec (Dredd checks only status and Content-Type). */
  validation: here('./validate-hooks.ts'),
  /** Creates the conditions of a spec the sandbox was loaded with, from its plan. */
  specConditions: here('./spec-hooks.ts'),
};

/**
 * Inside the package, so that the packages the hooks use, left out of the
 * bundle, are found in its node_modules.
 */
const BUNDLES_DIR = join(PACKAGE_ROOT, 'node_modules', '.cache', 'petstore-sandbox');

export interface HookBundle {
  conditions: string;
  validation: string;
  specConditions: string;
  /** Removes the bundle's folder. */
  remove(): Promise<void>;
}

/**
 * The hooks as the package's build bundles them (scripts/verify-bundle.mjs),
 * with every library they use inside: the installed package has no esbuild
 * and no devDependencies. Absent in a checkout run by tsx, whose sources
 * are bundled afresh instead.
 */
const PREBUILT = {
  conditions: join(PACKAGE_ROOT, 'dist', 'verify', 'dredd-hooks', 'hooks.cjs'),
  validation: join(PACKAGE_ROOT, 'dist', 'verify', 'dredd-hooks', 'validate-hooks.cjs'),
  specConditions: join(PACKAGE_ROOT, 'dist', 'verify', 'dredd-hooks', 'spec-hooks.cjs'),
};

/** Whether this code runs from the package's bundle (dist/verify/), not from contracts/ sources. */
const fromBundle = () => !import.meta.url.endsWith('.ts');

/**
 * The hooks as CommonJS files, which is what Dredd loads (through
 * proxyquire, which hands them its `hooks` object): the package's
 * prebuilt ones, or, from the sources, a fresh bundle in a folder of its
 * own per run, so runs in parallel processes never read each other's
 * half-written files.
 */
export async function bundleHooks(): Promise<HookBundle> {
  if (fromBundle()) {
    if (!existsSync(PREBUILT.conditions)) throw new Error(`The package's Dredd hooks are missing: ${PREBUILT.conditions}`);
    return { ...PREBUILT, remove: async () => undefined };
  }
  // esbuild is a devDependency: imported only here, where the sources are.
  const { build } = await import('esbuild');
  await mkdir(BUNDLES_DIR, { recursive: true });
  const dir = await mkdtemp(join(BUNDLES_DIR, 'dredd-hooks-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await build({
      entryPoints: { hooks: HOOK_SOURCES.conditions, 'validate-hooks': HOOK_SOURCES.validation, 'spec-hooks': HOOK_SOURCES.specConditions },
      outdir: dir,
      outExtension: { '.js': '.cjs' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      // `hooks` is Dredd's; the rest are the project's dependencies.
      packages: 'external',
      logLevel: 'warning',
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return { conditions: join(dir, 'hooks.cjs'), validation: join(dir, 'validate-hooks.cjs'), specConditions: join(dir, 'spec-hooks.cjs'), remove };
}
