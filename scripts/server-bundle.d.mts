import type { BuildOptions } from 'esbuild';

/** esbuild's options for `src/bin.ts` under `root` alone, written to `outfile`. */
export function serverBundleOptions(root: string, outfile: string): BuildOptions;

/** esbuild's options for the package's entries under `root`, with their shared chunks, written to `outdir`. */
export function packageBundleOptions(root: string, outdir: string): BuildOptions;
