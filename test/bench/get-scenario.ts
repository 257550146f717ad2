/**
 * The `get` scenario: GET /v1/pets at 10 connections beside Prism, the
 * minimal Express app (and the sandbox on PostgreSQL), at 50 beside the bare
 * node:http handler (and a compared build), on PostgreSQL beside the file
 * backend (a list and a pet by id), and at 50 with the request log off and
 * on: what the log costs.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareBin, compareLabel } from './options.js';
import { startBare, startBaseline, startSandbox, type ServerProcess } from './processes.js';
import { ratioTarget, roundRatioOf, rowsOf, rpsOf, type Row, type Target } from './report.js';
import { compare, type BenchOptions } from './scenarios.js';

/** The Pet Store 1.1 with its orders, a spec the sandbox serves by convention. */
const PETSTORE_11 = fileURLToPath(new URL('../specs/petstore-1.1.yaml', import.meta.url));
const INFERRED = 'sandbox --spec petstore-1.1.yaml (by convention)';

/** The running servers the scenario measures the sandbox beside (the run's own). */
export interface GetContext {
  opts: BenchOptions;
  work: string;
  /** The sandbox on a data file seeded with 50 pets, with its defaults (the request log on, to a file). */
  sandbox: ServerProcess;
  prism: ServerProcess;
  /** The sandbox on PostgreSQL with 50 pets, and its rows' label. */
  pg?: { server: ServerProcess; label: string };
}

/** PostgreSQL's reads beside the file backend's, at 50 connections: a list and a pet by id, each a target (median of per-round ratios). */
async function postgresBesideFile(opts: BenchOptions, rows: Row[], sandbox: ServerProcess, pg: NonNullable<GetContext['pg']>): Promise<Target[]> {
  const both = [
    { label: 'sandbox', server: sandbox },
    { label: pg.label, server: pg.server },
  ];
  const targets: Target[] = [];
  for (const [scenario, path] of [
    ['GET /v1/pets, c50, PostgreSQL beside the file', '/pets'],
    ['GET /v1/pets/1, c50, PostgreSQL beside the file', '/pets/1'],
  ] as const) {
    rows.push(...rowsOf(scenario, await compare(opts, both, { path, connections: 50 })));
    const what = path === '/pets' ? 'GET /v1/pets' : 'GET /v1/pets/{id}';
    targets.push(ratioTarget(`PostgreSQL ${what} c50 vs file backend (median of per-round ratios)`, roundRatioOf(rows, scenario, pg.label, 'sandbox'), 1, 0.7));
  }
  return targets;
}

/** The scenario's rows and targets. */
export async function getResults({ opts, work, sandbox, prism, pg }: GetContext): Promise<{ rows: Row[]; targets: Target[] }> {
  const rows: Row[] = [];
  const rps = (scenario: string, server: string) => rpsOf(rows, scenario, server);
  const express = await startBaseline();
  const bare = await startBare();
  const prebuilt = await startBare(true);
  const before = compareBin ? await startSandbox(join(work, 'compare', 'db.json'), 50, compareLabel, compareBin) : undefined;
  const c10 = [
    { label: 'sandbox', server: sandbox },
    { label: 'prism', server: prism },
    { label: 'express', server: express },
    ...(pg ? [{ label: pg.label, server: pg.server }] : []),
  ];
  rows.push(...rowsOf('GET /v1/pets, c10', await compare(opts, c10, { path: '/pets', connections: 10 }), 'prism', 'express'));
  const c50 = [
    { label: 'sandbox', server: sandbox },
    { label: 'node:http', server: bare },
    { label: 'node:http, prebuilt text', server: prebuilt },
    ...(before ? [{ label: compareLabel, server: before }] : []),
  ];
  rows.push(...rowsOf('GET /v1/pets, c50', await compare(opts, c50, { path: '/pets', connections: 50 })));
  const targets: Target[] = [];
  if (before)
    targets.push(
      ratioTarget(
        `GET /v1/pets c50 vs ${compareLabel} (median of per-round ratios)`,
        roundRatioOf(rows, 'GET /v1/pets, c50', 'sandbox', compareLabel),
        1,
        0.95,
      ),
    );
  await Promise.all([express.stop(), bare.stop(), prebuilt.stop(), before?.stop()]);
  if (pg) targets.push(...(await postgresBesideFile(opts, rows, sandbox, pg)));
  // The same list, served from a spec by convention (`--spec`, the Pet Store 1.1: /v1/pets is an inferred collection).
  const inferred = await startSandbox(join(work, 'inferred', 'db.json'), 50, 'sandbox --spec', undefined, true, ['--spec', PETSTORE_11]);
  const byConvention = [
    { label: 'sandbox', server: sandbox },
    { label: INFERRED, server: inferred },
  ];
  rows.push(...rowsOf('GET /v1/pets, c50, by convention', await compare(opts, byConvention, { path: '/pets', connections: 50 })));
  await inferred.stop();
  console.log('GET /v1/pets, request log off and on');
  const quiet = await startSandbox(join(work, 'quiet', 'db.json'), 50, 'sandbox, request log off', undefined, false);
  const logging = [
    { label: 'request log off', server: quiet },
    { label: 'request log on (JSON)', server: sandbox },
  ];
  rows.push(...rowsOf('GET /v1/pets, c50, request log', await compare(opts, logging, { path: '/pets', connections: 50 })));
  await quiet.stop();
  targets.push(
    ratioTarget('stateful GET /v1/pets vs minimal Express', rps('GET /v1/pets, c10', 'sandbox'), rps('GET /v1/pets, c10', 'express'), 0.8),
    ratioTarget('stateful GET /v1/pets vs Prism', rps('GET /v1/pets, c10', 'sandbox'), rps('GET /v1/pets, c10', 'prism'), 4),
    ...(pg ? [ratioTarget('PostgreSQL GET /v1/pets vs Prism', rps('GET /v1/pets, c10', pg.label), rps('GET /v1/pets, c10', 'prism'), 1.5)] : []),
    ratioTarget('GET /v1/pets c50 vs bare node:http', rps('GET /v1/pets, c50', 'sandbox'), rps('GET /v1/pets, c50', 'node:http'), 0.85),
    ratioTarget(
      'GET /v1/pets c50, request log on vs off',
      rps('GET /v1/pets, c50, request log', 'request log on (JSON)'),
      rps('GET /v1/pets, c50, request log', 'request log off'),
      0.5,
    ),
    ratioTarget(
      'GET /v1/pets c50 vs node:http sending a prebuilt text',
      rps('GET /v1/pets, c50', 'sandbox'),
      rps('GET /v1/pets, c50', 'node:http, prebuilt text'),
      0.85,
    ),
  );
  return { rows, targets };
}
