/**
 * The supported Node.js versions are written in several places: `engines`,
 * the README's quick start, the Dockerfile's base images, the runtimes CI
 * installs (.ci/run, .ci/node<major>/package.json), the bundles' esbuild
 * target and @types/node. They must agree: the reference runtime is the one
 * CI runs `npm test` on, the oldest supported one is `engines`' floor.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverBundleOptions } from '../../scripts/server-bundle.mjs';
import { ROOT } from '../support/spawn.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const json = (file: string) =>
  JSON.parse(read(file)) as { engines?: { node?: string }; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

const ci = read('.ci/run');
/** The Node major of each CI leg, by the leg's command: `leg NAME MAJOR COMMAND...`. */
const legs = [...ci.matchAll(/^leg '([^']+)' (\d+) /gm)].map(([, name, major]) => ({ name: name ?? '', major: Number(major) }));
const reference = legs.find((l) => l.name === 'npm test')?.major;
const floor = /^>=(\d+)\.(\d+)$/.exec(json('package.json').engines?.node ?? '');
const oldest = Number(floor?.[1]);

describe('the supported Node.js versions', () => {
  it('CI runs npm test on a reference runtime and the named suites on the oldest supported line, engines floor', () => {
    expect(reference).toBeGreaterThan(oldest);
    expect(floor, 'engines.node is ">=MAJOR.MINOR"').not.toBeNull();
    const other = legs.find((l) => l.major === oldest);
    for (const suite of ['test:unit', 'test:contract']) expect(ci.slice(ci.indexOf(`leg '${other?.name}'`))).toContain(`npm run ${suite}`);
  });

  it('each CI runtime comes from the registry within its line, the oldest from the engines floor on', () => {
    expect(json(`.ci/node${reference}/package.json`).dependencies?.node).toMatch(new RegExp(`^\\^${reference}\\.`));
    expect(json(`.ci/node${oldest}/package.json`).dependencies?.node).toBe(`^${floor?.[1]}.${floor?.[2]}.0`);
  });

  it('the README quick start names the floor and the reference runtime', () => {
    const quickStart = read('README.md').split('## Quick start')[1]?.split('\n## ')[0] ?? '';
    expect(quickStart).toContain(`Node.js ${floor?.[1]}.${floor?.[2]} or later`);
    expect(quickStart).toContain(`${reference} is the reference runtime`);
  });

  it('the Dockerfile builds and runs on the reference runtime', () => {
    const images = [...read('Dockerfile').matchAll(/^FROM\s+(\S+)/gm)].map(([, image]) => image);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image).toMatch(new RegExp(`^node:${reference}-`));
  });

  it('code is compiled for, and typed against, the oldest supported line', () => {
    expect(serverBundleOptions(ROOT, 'out.js').target).toBe(`node${oldest}`);
    expect(read('contracts/dredd/bundle-hooks.ts')).toContain(`target: 'node${oldest}'`);
    expect(json('package.json').devDependencies?.['@types/node']).toMatch(new RegExp(`^\\^${oldest}\\.`));
  });
});
