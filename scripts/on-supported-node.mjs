#!/usr/bin/env node
/**
 * Usage: node scripts/on-supported-node.mjs COMMAND [ARGS...]
 *
 * Runs COMMAND on a Node.js release that `engines` in package.json allows.
 * When the `node` running this script is one, COMMAND runs as it is. When it
 * is older (a system Node 20, say), Node 24 is installed from the npm
 * registry into the git-ignored .ci/node24/ by .ci/install-node (once; later
 * runs reuse it). Either way COMMAND runs with that node first on PATH, so
 * that every `node` that npm, npx, tsx or a test starts by name is the same. One
 * line says so first. `npm test` goes through here, so that it passes on a
 * machine whose own Node is past its end of life.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/on-supported-node.mjs COMMAND [ARGS...]');
  process.exit(2);
}

// This very node first on PATH, so that what COMMAND starts by name runs on it too.
let bin = dirname(process.execPath);
if (!semver.satisfies(process.version, wanted)) {
  console.error(`Node ${process.version} is not one the sandbox supports (${wanted}): running on Node 24 from .ci/node24 (see docs/node-versions.md).`);
  try {
    bin = execFileSync(join(root, '.ci', 'install-node'), ['24'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch {
    console.error('Could not install Node 24 from the npm registry into .ci/node24: install Node 22.12 or later and run the command again.');
    process.exit(1);
  }
}
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };

const child = spawn(command, args, { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  console.error(`Could not run ${command}: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
