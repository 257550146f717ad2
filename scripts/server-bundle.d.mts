import type { BuildOptions } from 'esbuild';

/** esbuild's options for `src/bin.ts` under `root` alone, written to `outfile`. */
export function serverBundleOptions(root: string, outfile: string): BuildOptions;

/** esbuild's options for the package's entries under `root`, with their shared chunks, written to `outdir`. */
export function packageBundleOptions(root: string, outdir: string): BuildOptions;

/** The optional peers a server uses (src/config/optional-peers.ts holds their versions). */
export const SERVER_PEERS: readonly string[];

/** What the bundles leave to installs: the dependencies and the server's optional peers. */
export const INSTALLED: readonly string[];
