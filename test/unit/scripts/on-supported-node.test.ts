/**
 * `npm test` goes through scripts/on-supported-node.mjs: the suites run on a
 * Node.js release `engines` allows, and every `node` started by name is that
 * same release, whatever `node` comes first on the caller's PATH.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config/paths.js';

const script = join(PACKAGE_ROOT, 'scripts', 'on-supported-node.mjs');
const engines = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
/** The machine's own node, when it has one that engines does not allow (Debian's 20 here). */
const systemNode = '/usr/bin/node';
const oldSystemNode = existsSync(systemNode) && !semver.satisfies(execFileSync(systemNode, ['-v'], { encoding: 'utf8' }).trim(), engines);

const versionSeenBy = (node: string) =>
  execFileSync(node, [script, 'node', '-p', 'process.version'], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `/usr/bin:${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

describe('scripts/on-supported-node.mjs', () => {
  it('runs the command with this node first on PATH', () => {
    expect(versionSeenBy(process.execPath)).toBe(process.version);
  });

  it('passes the command’s exit code on', () => {
    let status: number | null = 0;
    try {
      execFileSync(process.execPath, [script, 'node', '-e', 'process.exit(3)'], { stdio: 'ignore' });
    } catch (error) {
      status = (error as { status: number | null }).status;
    }
    expect(status).toBe(3);
  });

  it.skipIf(!oldSystemNode)(
    'on a node engines does not allow, runs the command on Node 24 instead (skipped where /usr/bin/node is absent or supported)',
    () => {
      const seen = versionSeenBy(systemNode);
      expect(semver.satisfies(seen, engines)).toBe(true);
      expect(semver.major(seen)).toBe(24);
    },
    120_000,
  );
});
