/**
 * `npm run bench`: the sandbox against Prism's mock and a minimal Express
 * app on this machine; prints one table and the targets, writes the
 * results to `.bench/results-<date>.json`. `--smoke` (or BENCH_DURATION=1)
 * makes it short enough for CI; it never fails on timings, only when a
 * server does not start or answers with errors.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/paths.js';
import type { LoadResult } from './load.js';
import { killAll, startBare, startBaseline, startPrism, startSandbox, type ServerProcess } from './processes.js';
import { maxTarget, ratioTarget, render, type Measure, type Row, type Target } from './report.js';
import { compare, freshCopy, NEW_PET, readyTime, type BenchOptions } from './scenarios.js';

const smoke = process.argv.includes('--smoke');
const positive = (raw: string | undefined, fallback: number) => (raw && Number(raw) > 0 ? Number(raw) : fallback);
const opts: BenchOptions = {
  durationSec: positive(process.env.BENCH_DURATION, smoke ? 1 : 5),
  rounds: positive(process.env.BENCH_ROUNDS, smoke ? 1 : 3),
  starts: positive(process.env.BENCH_STARTS, smoke ? 2 : 7),
  warmup: !smoke,
  log: (line) => console.log(line),
};
const BIG = positive(process.env.BENCH_BIG, 100_000);
/** Another build of the sandbox (its `dist/src/bin.js`) to run beside this one in the POST scenarios, e.g. the previous release. */
const compareBin = process.env.BENCH_COMPARE_BIN;
const compareLabel = process.env.BENCH_COMPARE_LABEL ?? 'sandbox (compared build)';
/** `--only get,filter,post,ready`: a subset of the scenarios (targets of the others are left out). */
const only = new Set((process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? 'get,filter,post,ready').split(','));

const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
const rows: Row[] = [];
const measures: Measure[] = [];
const loadavgBefore = loadavg();
// Bounded in time whatever happens: kill every server and give up.
const watchdog = setTimeout(() => {
  console.error('bench: took too long, stopping');
  killAll();
  process.exit(1);
}, 60 * 60_000);
process.once('SIGINT', () => (killAll(), process.exit(130)));

function addRows(scenario: string, results: Map<string, LoadResult>, prism?: string, express?: string): void {
  const p = prism ? results.get(prism)?.rps : undefined;
  const e = express ? results.get(express)?.rps : undefined;
  for (const [server, result] of results) {
    const row: Row = { scenario, server, result };
    if (p && server !== prism) row.vsPrism = result.rps / p;
    if (e && server !== express) row.vsExpress = result.rps / e;
    rows.push(row);
  }
}

const rps = (scenario: string, server: string) => rows.find((r) => r.scenario === scenario && r.server === server)?.result.rps ?? Number.NaN;
const cpu = (scenario: string, server: string) => rows.find((r) => r.scenario === scenario && r.server === server)?.result.cpuUs ?? Number.NaN;
const bigRss: number[] = [];
const probeBig = (s: ServerProcess) => void bigRss.push(s.peakRssMb() ?? Number.NaN);

async function main(): Promise<void> {
  console.log(
    `bench: ${opts.rounds} round(s) of ${opts.durationSec}s per server and scenario; ${cpus().length} cores, Node ${process.version}; scenarios: ${[...only].join(', ')}`,
  );
  const seeded = join(work, 'seeded', 'db.json');
  const big = join(work, 'big', 'db.json');
  const small = join(work, 'small', 'db.json');
  const targets: Target[] = [];

  console.log('starting: sandbox (default seed), Prism, minimal Express');
  const sb50 = await startSandbox(seeded, 50, 'sandbox (50)');
  measures.push({ name: 'ready, fresh data dir (seeds 50 pets)', value: sb50.readyMs, unit: 'ms' });
  const prism = await startPrism();

  if (only.has('get')) {
    console.log('GET /v1/pets');
    const express = await startBaseline();
    const bare = await startBare();
    const prebuilt = await startBare(true);
    const before = compareBin ? await startSandbox(join(work, 'compare', 'db.json'), 50, compareLabel, compareBin) : undefined;
    addRows(
      'GET /v1/pets, c10',
      await compare(
        opts,
        [
          { label: 'sandbox', server: sb50 },
          { label: 'prism', server: prism },
          { label: 'express', server: express },
        ],
        { path: '/pets', connections: 10 },
      ),
      'prism',
      'express',
    );
    const c50 = [
      { label: 'sandbox', server: sb50 },
      { label: 'node:http', server: bare },
      { label: 'node:http, prebuilt text', server: prebuilt },
      ...(before ? [{ label: compareLabel, server: before }] : []),
    ];
    addRows('GET /v1/pets, c50', await compare(opts, c50, { path: '/pets', connections: 50 }));
    await Promise.all([express.stop(), bare.stop(), prebuilt.stop(), before?.stop()]);
    console.log('GET /v1/pets, request log off and on');
    const logged = await startSandbox(join(work, 'logged', 'db.json'), 50, 'sandbox, request log on', undefined, true);
    const logging = [
      { label: 'request log off', server: sb50 },
      { label: 'request log on (JSON)', server: logged },
    ];
    addRows('GET /v1/pets, c50, request log', await compare(opts, logging, { path: '/pets', connections: 50 }));
    await logged.stop();
    targets.push(
      ratioTarget('stateful GET /v1/pets vs minimal Express', rps('GET /v1/pets, c10', 'sandbox'), rps('GET /v1/pets, c10', 'express'), 0.8),
      ratioTarget('stateful GET /v1/pets vs Prism', rps('GET /v1/pets, c10', 'sandbox'), rps('GET /v1/pets, c10', 'prism'), 4),
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
  }

  const sbBig = ['filter', 'post', 'ready'].some((o) => only.has(o)) ? await startSandbox(big, BIG, `sandbox (${BIG})`) : undefined;
  if (sbBig) measures.push({ name: `ready, fresh data dir (seeds ${BIG} pets)`, value: sbBig.readyMs, unit: 'ms' });
  if (sbBig && only.has('filter')) {
    console.log('GET /v1/pets?status=sold&limit=100');
    const filter = { path: '/pets?status=sold&limit=100', connections: 10 };
    const scenario = 'GET ?status=sold&limit=100, c10';
    addRows(
      scenario,
      await compare(
        opts,
        [
          { label: 'sandbox, 50 pets', server: sb50 },
          { label: `sandbox, ${BIG} pets`, server: sbBig, after: probeBig },
          { label: 'prism', server: prism },
        ],
        filter,
      ),
      'prism',
    );
    targets.push(ratioTarget(`list with filter, ${BIG} vs 50 pets`, rps(scenario, `sandbox, ${BIG} pets`), rps(scenario, 'sandbox, 50 pets'), 0.5));
  }
  await Promise.all([sb50.stop(), sbBig?.stop()]);

  if (only.has('post')) {
    const prep = await startSandbox(small, 100, 'sandbox (100)');
    await prep.stop();
    for (const connections of [10, 100]) {
      console.log(`POST /v1/pets, concurrency ${connections} (each round on a fresh copy of the store)`);
      const contenders = [
        freshCopy('sandbox, 100 stored', join(work, 'small'), work),
        freshCopy(`sandbox, ${BIG} stored`, join(work, 'big'), work, probeBig),
        { label: 'prism', server: prism },
      ];
      if (compareBin) contenders.push(freshCopy(`${compareLabel}, 100 stored`, join(work, 'small'), work, undefined, compareBin));
      if (connections === 100) contenders.push({ label: 'node:http, canned 201', fresh: startBare });
      addRows(`POST /v1/pets, c${connections}`, await compare(opts, contenders, { path: '/pets', connections, body: NEW_PET }), 'prism');
    }
    targets.push(
      ratioTarget(
        `POST c100, ${BIG} vs 100 stored`,
        rps('POST /v1/pets, c100', `sandbox, ${BIG} stored`),
        rps('POST /v1/pets, c100', 'sandbox, 100 stored'),
        0.3,
      ),
    );
    if (compareBin) {
      const before = `${compareLabel}, 100 stored`;
      targets.push(ratioTarget(`POST c100 vs ${compareLabel}`, rps('POST /v1/pets, c100', 'sandbox, 100 stored'), rps('POST /v1/pets, c100', before), 0.8));
      targets.push(
        ratioTarget(
          `CPU per create, ${compareLabel} vs this build (c100)`,
          cpu('POST /v1/pets, c100', before),
          cpu('POST /v1/pets, c100', 'sandbox, 100 stored'),
          2,
        ),
      );
    }
  }
  await prism.stop();

  const readyRuns: Record<string, number[]> = {};
  if (only.has('ready')) {
    console.log('ready time: start to first 200 on GET /v1/pets');
    const readySeeded = await readyTime(opts, seeded);
    const readyBig = await readyTime(opts, big);
    bigRss.push(readyBig.peakRssMb);
    Object.assign(readyRuns, { seeded: readySeeded.all, big: readyBig.all });
    measures.push({ name: `ready, seeded store (50 pets), median of ${opts.starts}`, value: readySeeded.ms, unit: 'ms' });
    measures.push({ name: `ready, ${BIG} pets on disk, median of ${opts.starts}`, value: readyBig.ms, unit: 'ms' });
    targets.push(maxTarget('ready time, seeded store', readySeeded.ms, 500, 'ms'));
  }
  const peak = Math.max(...bigRss.filter(Number.isFinite));
  if (bigRss.length > 0) {
    measures.push({ name: `peak RSS, ${BIG} pets (${[...only].filter((o) => o !== 'get').join(', ')})`, value: peak, unit: 'MB' });
    targets.push(maxTarget(`peak RSS, ${BIG} pets`, peak, 200, 'MB'));
  }

  const markdown = render(rows, measures, targets, !smoke);
  console.log(`\n${markdown}`);
  const broken = rows.filter((r) => r.result.non2xx > 0 || r.result.errors > 0 || r.result.requests === 0);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = join(PACKAGE_ROOT, '.bench');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, `results-${stamp}.json`);
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    totalMemMb: Math.round(totalmem() / 2 ** 20),
    node: process.version,
    platform: process.platform,
    loadavgBefore,
    loadavgAfter: loadavg(),
  };
  writeFileSync(
    outFile,
    `${JSON.stringify({ date: new Date().toISOString(), smoke, options: { ...opts, log: undefined, big: BIG }, machine, rows, measures, targets, readyRuns, markdown }, null, 2)}\n`,
  );
  console.log(`results: ${outFile}`);
  if (smoke) console.log('(smoke run: too short for the numbers to mean much)');
  if (broken.length > 0) {
    console.error(`bench: errors or non-2xx answers in: ${broken.map((r) => `${r.scenario} / ${r.server}`).join(', ')}`);
    process.exitCode = 1;
  }
}

main()
  .catch((error: unknown) => {
    console.error('bench failed:', error);
    killAll();
    process.exitCode = 1;
  })
  .finally(() => {
    clearTimeout(watchdog);
    rmSync(work, { recursive: true, force: true });
  });
