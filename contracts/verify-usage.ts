/**
 * What `verify` says when it is used wrongly, and its options checked:
 * the usage text, and the options of a run with `--spec` (verify-specs.ts).
 */
import { resolve } from 'node:path';
import { ConfigError } from '../src/config/error.js';
import { specsConfigOf } from '../src/config/specs.js';

/** How the user ran verify, for the usage text and the hints it prints: `npm run verify --` or `petstore-sandbox verify`. */
export interface VerifyProgram {
  /** The command line up to verify's own options. */
  name: string;
  /** How the user runs the sandbox's QA commands, e.g. `npm run cli --`. */
  cli: string;
}

export const usage = (program: VerifyProgram) => `Usage: ${program.name} --target <base URL ending in /v1> --key <API key> [options]
       ${program.name} --spec <file> [--spec <file> ...] [--target <origin> --key <API key>] [options]

Checks a deployment of the Pet Store interface against its contracts:
  Dredd  every documented response of spec/openapi.yaml, bodies checked against the spec
  Pact   every pact file in contracts/pacts (needs the /__sandbox control plane to set provider states)
With --spec, checks a sandbox serving those specs against each of them instead (Dredd; Pact with --pacts).

Options:
  --target <url>         the deployment's base address, ending in /v1 (required without --spec)
  --spec <file>          an OpenAPI 3.0 file the sandbox serves (repeatable; $PETSTORE_SPEC, comma-separated):
                         without --target, verify starts a sandbox serving them; with it, --target is
                         the origin they are served under
  --key <key>            an API key the deployment accepts (required)
  --admin-url <origin>   where /__sandbox is served (default: the target without /v1, if it answers there)
  --admin-token <token>  the control plane's admin token (default: $PETSTORE_ADMIN_TOKEN or sandbox-admin)
  --pacts <dir>          folder of pact files (default: contracts/pacts)
  --report <fmt>=<file>  also write a report for CI: junit=<file> (JUnit XML) or ctrf=<file> (CTRF JSON);
                         repeat it for several files. One test case per Dredd transaction and Pact interaction
  --force                overwrite a --report file that is not a report verify wrote (a symlink never)
  --verbose              also print Dredd's own report
  -h, --help             this text

Exit status: 0 all contracts hold, 1 a contract is broken or could not be checked, 2 bad usage.
On a sandbox, the key's workspace is saved as a checkpoint first and restored afterwards (also on Ctrl-C).
Elsewhere, Dredd creates pets with the key, and they stay.`;

/** Bad usage: verify prints it with the usage and exits 2. */
export class UsageError extends Error {}

/** The spec files of `--spec` (or $PETSTORE_SPEC), made absolute; none: the Pet Store, as always. */
export function specFilesOf(given: readonly string[] | undefined, env: NodeJS.ProcessEnv = process.env): readonly string[] {
  try {
    return specsConfigOf(given, env.PETSTORE_SPEC, '--spec', (file) => resolve(file)).specs;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** `--target` with `--spec`: the origin (and any path before the specs' base paths) serving them, without its trailing `/`. */
export function specTargetOf(target: string | undefined, key: string | undefined): string | undefined {
  if (target === undefined) return undefined;
  if (!key) throw new UsageError('--key is required with --target');
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`--target is not a URL: '${target}'`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new UsageError(`--target must be an http(s) URL, got '${target}'`);
  return target.replace(/\/+$/, '');
}
