/**
 * The container recipe, read: the Dockerfile passes dockerfilelint and has
 * the promised shape (multi-stage, the package test's npm scripts, a non-root
 * user, a data volume, a HEALTHCHECK on /readyz whose command is run for real
 * against a sandbox); compose.yaml is valid against the Compose
 * specification's JSON schema (vendored: compose-spec.json from
 * github.com/compose-spec/compose-spec, schema/compose-spec.json at commit
 * 170098ba07d9f53c383a41bfd4c5166b0a4529a6, Apache-2.0) and wires PostgreSQL,
 * two replicas and nginx together. image.test.ts builds the image and runs it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { startTestSandbox, tempDir } from '../support/harness.js';
import { ROOT } from '../support/spawn.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { name: string; bin: Record<string, string> };

/** The Dockerfile's instructions, continuation lines joined, comments dropped: [keyword, arguments]. */
function instructions(text: string): [string, string][] {
  return text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return [keyword.toUpperCase(), rest.join(' ')];
    });
}

/** dockerfilelint's issues for a Dockerfile, as its JSON report lists them. */
function lint(file: string): { line: string; title: string }[] {
  const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'dockerfilelint'), ['-o', 'json', file], { encoding: 'utf8' });
  const report = JSON.parse(run.stdout) as { files: { issues: { line: string; title: string }[] }[] };
  return report.files.flatMap((f) => f.issues);
}

describe('Dockerfile', () => {
  const steps = instructions(read('Dockerfile'));
  const args = (keyword: string) => steps.filter(([k]) => k === keyword).map(([, a]) => a);
  const lastFrom = steps.map(([k]) => k).lastIndexOf('FROM');
  const runStage = steps.slice(lastFrom);

  it('passes dockerfilelint, which does find faults', () => {
    expect(lint(join(ROOT, 'Dockerfile'))).toEqual([]);
    const bad = join(tempDir(), 'Dockerfile');
    writeFileSync(bad, 'FROM node\nRUN apt-get install curl\nEXPOSE 99999\n');
    expect(lint(bad).length).toBeGreaterThan(0);
  });

  it('builds in one stage with the npm scripts of the package test, and runs the installed tarball in another', () => {
    expect(args('FROM')).toHaveLength(2);
    expect(args('FROM')[0]).toMatch(/ AS build$/);
    const build = steps
      .slice(0, lastFrom)
      .filter(([k]) => k === 'RUN')
      .map(([, a]) => a);
    expect(build.some((a) => a.startsWith('npm ci'))).toBe(true);
    expect(build.some((a) => a.startsWith('npm pack'))).toBe(true);
    expect(runStage.some(([k, a]) => k === 'RUN' && a.startsWith('npm install --omit=dev'))).toBe(true);
    expect(runStage.some(([k, a]) => k === 'COPY' && a.startsWith('--from=build '))).toBe(true);
    const [bin] = Object.values(pkg.bin);
    expect(JSON.parse(args('ENTRYPOINT')[0] ?? '[]')).toEqual(['node', `/app/node_modules/${pkg.name}/${bin}`]);
  });

  it('runs as a non-root user with a data volume, listening beyond loopback', () => {
    const user = runStage.filter(([k]) => k === 'USER').map(([, a]) => a);
    expect(user).toEqual(['node']);
    expect(runStage.findIndex(([k]) => k === 'USER')).toBeLessThan(runStage.findIndex(([k]) => k === 'ENTRYPOINT'));
    expect(args('VOLUME')).toEqual(['/data']);
    const env = args('ENV').join(' ');
    expect(env).toContain('PETSTORE_DATA=/data/db.json');
    expect(env).toContain('PETSTORE_HOST=0.0.0.0');
    expect(read('.dockerignore').split('\n')).toContain('node_modules');
  });

  it('checks health on /readyz: its command, run here, passes on a ready sandbox and fails on a draining one', { timeout: 60_000 }, async () => {
    const healthcheck = args('HEALTHCHECK')[0] ?? '';
    const command = JSON.parse(healthcheck.slice(healthcheck.indexOf('CMD ') + 4)) as string[];
    expect(command.join(' ')).toContain('/readyz');
    const sb = await startTestSandbox();
    try {
      // Asynchronously: the sandbox answers from this very process.
      const probe = () =>
        new Promise<number | null>((resolve) => {
          const child = spawn(command[0] === 'node' ? process.execPath : (command[0] as string), command.slice(1), {
            env: { ...process.env, PETSTORE_PORT: new URL(sb.origin).port },
            stdio: 'ignore',
          });
          child.once('exit', resolve);
        });
      expect(await probe()).toBe(0);
      sb.drain();
      expect(await probe()).toBe(1);
    } finally {
      await sb.stop();
    }
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<
      string,
      { image?: string; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown; volumes?: string[] }
    >;
  };
  const schema = JSON.parse(readFileSync(join(ROOT, 'test', 'container', 'compose-spec.json'), 'utf8')) as object;
  // The vendored schema names its meta-schema by a URL Ajv does not hold: its keywords are draft-07's, which Ajv's are.
  const validate = new Ajv({ strict: false, allErrors: true, validateSchema: false }).compile(schema);

  it('is valid against the Compose specification schema, which does reject a broken file', () => {
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
    const broken = structuredClone(compose) as unknown as { services: Record<string, Record<string, unknown>> };
    (broken.services.lb as Record<string, unknown>).ports = 4010;
    expect(validate(broken)).toBe(false);
  });

  it('runs PostgreSQL, two sandbox replicas on it, and nginx in front of both', () => {
    const { services } = compose;
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.postgres?.healthcheck).toBeDefined();
    const replicas = Object.keys(services).filter((name) => services[name]?.environment?.PETSTORE_STORE !== undefined);
    expect(replicas).toEqual(['sandbox-1', 'sandbox-2']);
    for (const name of replicas) {
      expect(services[name]?.environment?.PETSTORE_STORE).toMatch(/^postgres:\/\/sandbox:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/sandbox$/);
      expect(services[name]?.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(services[name]?.volumes).toEqual([`${name}-data:/data`]);
    }
    expect(services.lb?.image).toMatch(/^nginx:/);
    expect(services.lb?.depends_on).toEqual({ 'sandbox-1': { condition: 'service_healthy' }, 'sandbox-2': { condition: 'service_healthy' } });
    const nginx = read('deploy/nginx.conf');
    expect(nginx.match(/^\s*server sandbox-\d:4010\b/gm)?.length).toBe(2);
  });
});
