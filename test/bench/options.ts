/** The bench's settings, from its arguments (`--smoke`, `--only=`, `--docs-dir=`) and BENCH_* variables. */
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import type { BenchOptions } from './scenarios.js';

export const smoke = process.argv.includes('--smoke');
/** `--soak`: the soak run (soak-run.ts) instead of the comparisons. */
export const soak = process.argv.includes('--soak');
/** `--profile`: CPU profiles of the sandbox under load (profile-run.ts, `npm run profile`) instead of the comparisons. */
export const profile = process.argv.includes('--profile');
/** `--redraw`: draws the chart again from the page in the docs folder (docs-page.ts `redrawChart`), running nothing. */
export const redraw = process.argv.includes('--redraw');
/** A BENCH_* number when it is one above zero, else `fallback`. */
export const positive = (raw: string | undefined, fallback: number) => (raw && Number(raw) > 0 ? Number(raw) : fallback);
export const opts: BenchOptions = {
  durationSec: positive(process.env.BENCH_DURATION, smoke ? 1 : 5),
  rounds: positive(process.env.BENCH_ROUNDS, smoke ? 1 : 3),
  starts: positive(process.env.BENCH_STARTS, smoke ? 2 : 7),
  warmup: !smoke,
  log: (line) => console.log(line),
};
export const BIG = positive(process.env.BENCH_BIG, 100_000);
/** Another build of the sandbox (its `dist/src/bin.js`) to run beside this one in the POST scenarios, e.g. the previous release. */
export const compareBin = process.env.BENCH_COMPARE_BIN;
export const compareLabel = process.env.BENCH_COMPARE_LABEL ?? 'sandbox (compared build)';
/** The scenarios, in the order they run: `--only=` picks some (targets of the others are left out). */
export const SCENARIOS = ['get', 'peers', 'filter', 'post', 'cross', 'ready', 'inprocess', 'msw', 'size'] as const;
export const only = new Set((process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? SCENARIOS.join(',')).split(','));
/** Names given to `--only=` that are no scenario. */
export const unknownScenarios = [...only].filter((name) => !(SCENARIOS as readonly string[]).includes(name));
/** `npm run bench -- --help`. */
export const HELP = `Usage: npm run bench -- [options]   (docs/performance.md)

  --only=<names>     some scenarios, comma-separated: ${SCENARIOS.join(', ')}
                     get: GET /v1/pets beside Prism, Express, node:http; the request log off and on
                     peers: GET list, GET by id and POST beside json-server, Mockoon CLI, WireMock, Prism, node:http
  --smoke            short rounds that only show it works (npm run bench:smoke)
  --docs-dir=<dir>   where the page and chart go
  --redraw           draw the chart in the docs folder again from its page, running nothing
  --profile          CPU profiles instead (npm run profile)
  --soak             the soak run instead (docs/soak.md)
  --help             this text

  BENCH_ROUNDS, BENCH_DURATION, BENCH_STARTS, BENCH_BIG, BENCH_POSTGRES=0, BENCH_COMPARE_BIN, BENCH_COMPARE_LABEL`;
/** The sandbox on PostgreSQL beside the file backend in GET, filter and POST, and the cross-instance scenario; BENCH_POSTGRES=0 leaves them out. */
export const withPostgres = process.env.BENCH_POSTGRES !== '0' && ['get', 'filter', 'post', 'cross'].some((o) => only.has(o));
/**
 * Where the run's page and chart go (docs-page.ts): `--docs-dir=<folder>`, else
 * docs/performance/ on a full run and the ignored .bench/performance/ on a
 * smoke run, so that `npm test` (which ends with one) changes no tracked file.
 */
const docsDirArg = process.argv.find((a) => a.startsWith('--docs-dir='))?.slice('--docs-dir='.length);
export const docsDir = docsDirArg ? resolve(docsDirArg) : join(PACKAGE_ROOT, smoke ? '.bench/performance' : 'docs/performance');
