/**
 * `petstore-sandbox verify`: hands the arguments to the contract checks
 * (contracts/verify-command.ts), which the package ships as a bundle of
 * their own (dist/verify/) and loads only for this command, so that serving
 * never loads them and Dredd and Pact stay the user's optional install.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../config/paths.js';

interface VerifyModule {
  runVerifyCommand(argv: readonly string[]): Promise<number>;
}

/** The module: the package's bundle, or the sources when this code runs from them (tsx, vitest). */
function verifyModuleFile(fromSources = import.meta.url.endsWith('.ts')): string {
  return fromSources ? join(PACKAGE_ROOT, 'contracts', 'verify-command.ts') : join(PACKAGE_ROOT, 'dist', 'verify', 'command.js');
}

/** Runs `petstore-sandbox verify` on its own options; resolves with the exit code. */
export async function runVerify(argv: readonly string[]): Promise<number> {
  const module = (await import(pathToFileURL(verifyModuleFile()).href)) as VerifyModule;
  return module.runVerifyCommand(argv);
}
