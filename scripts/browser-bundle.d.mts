import type { BuildOptions, Plugin } from 'esbuild';

/** The browser entry, and where its bundle goes under the output folder. */
export const BROWSER_ENTRY: { in: string; out: string };

/** The esbuild plugin that puts the browser's modules in place of the Node-only loaders. */
export function browserSwaps(root: string): Plugin;

/** esbuild's options for a browser bundle of `entryPoints` (default the package's browser entry) under `root`, written to `outdir`. */
export function browserBundleOptions(root: string, outdir: string, entryPoints?: { in: string; out: string }[]): BuildOptions & { plugins: Plugin[] };
