import type { BuildOptions } from 'esbuild';

/** esbuild's options for `src/bin.ts` under `root`, written to `outfile`. */
export function serverBundleOptions(root: string, outfile: string): BuildOptions;
