/**
 * The sandbox `verify --spec` checks: the one at `--target`, or, without
 * it, one started here serving the specs (in memory, on a free port of
 * 127.0.0.1) and stopped when verify ends.
 */
import type { createSandbox as CreateSandbox } from '../src/index.js';

/** Where the specs are served, with what to send. */
export interface Served {
  /** The origin each spec's base path is appended to. */
  origin: string;
  key: string;
  adminToken: string;
  /** Started here: then it holds only what verify did, and is stopped after. */
  started: boolean;
  close(): Promise<void>;
}

/**
 * The library, loaded only when verify starts a sandbox: from the sources
 * in a checkout (tsx), from the package's own main entry beside dist/verify/
 * when installed.
 */
async function loadLibrary(): Promise<{ createSandbox: typeof CreateSandbox }> {
  const entry = import.meta.url.endsWith('.ts') ? '../src/index.js' : '../index.js';
  return (await import(new URL(entry, import.meta.url).href)) as { createSandbox: typeof CreateSandbox };
}

/** Starts a sandbox serving `specs`; rejects (a ConfigError naming the file) when one cannot be served. */
export async function startServed(specs: readonly string[]): Promise<Served> {
  const { createSandbox } = await loadLibrary();
  const sandbox = await createSandbox({ spec: [...specs] });
  try {
    const origin = await sandbox.listen(0);
    return { origin, key: sandbox.apiKeys[0] as string, adminToken: sandbox.adminToken, started: true, close: () => sandbox.close() };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

/** A sandbox started elsewhere, at `origin`. */
export const targetServed = (origin: string, key: string, adminToken: string): Served => ({
  origin,
  key,
  adminToken,
  started: false,
  close: async () => undefined,
});
