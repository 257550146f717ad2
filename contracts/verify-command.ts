/**
 * `petstore-sandbox verify`: the checks of `npm run verify`, from the
 * installed package. Dredd and Pact are optional peer dependencies, loaded
 * only here: a sandbox user who never verifies never installs them, and the
 * package's own dependencies stay free of Dredd's large tree.
 */
import { createRequire } from 'node:module';
import { plainOutput } from './plain-output.js';
import { verifyMain } from './verify-main.js';

/** The peer dependencies verify loads, with the versions it is built and tested with. */
export const VERIFY_PEERS = { dredd: '^14.1.0', '@pact-foundation/pact': '^17.1.4' } as const;

/** The peers that cannot be found from the installed package (resolved as its own imports are). */
export function missingPeers(resolveFrom = import.meta.url): string[] {
  const require = createRequire(resolveFrom);
  return Object.keys(VERIFY_PEERS).filter((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * Runs verify on `argv` (its own options); resolves with the exit code. A
 * missing peer is bad usage (2) before anything is sent, naming the npm
 * command that installs what is missing.
 */
export async function runVerifyCommand(argv: readonly string[]): Promise<number> {
  const program = { name: 'petstore-sandbox verify', cli: 'npx petstore-sandbox' };
  const help = argv.includes('--help') || argv.includes('-h');
  const missing = help ? [] : missingPeers();
  if (missing.length > 0) {
    const install = missing.map((name) => `${name}@${VERIFY_PEERS[name as keyof typeof VERIFY_PEERS]}`).join(' ');
    console.error(
      `petstore-sandbox verify: needs ${missing.join(' and ')}, which the package leaves to you (optional peer dependencies).\n` +
        `Install: npm install --save-dev ${install}`,
    );
    return 2;
  }
  return plainOutput(() => verifyMain([...argv], program));
}
