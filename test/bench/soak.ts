/**
 * One backend's soak: warm-up, settle, baseline; the load in windows;
 * settle, the same readings again; every acknowledged write checked; then
 * SIGTERM. The verdict is soak-rules.ts's.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerProcess } from './processes.js';
import { statFields } from './proc-stat.js';
import type { SoakContext } from './soak-calls.js';
import { verifyAll } from './soak-control.js';
import { createSoakHttp } from './soak-http.js';
import { ControlWorkspace, Findings, LedgerWorkspace } from './soak-ledger.js';
import type { Workload } from './soak-ops.js';
import { answersCheck, descriptorCheck, diskCheck, ledgerCheck, memoryCheck, sigtermCheck, type Check, type SoakLimits } from './soak-rules.js';
import { runTraffic, type TrafficSettings } from './soak-traffic.js';
import { sampleProcess, WindowRecorder, type ProcessSample, type SoakWindow } from './soak-window.js';

export interface SoakSettings extends TrafficSettings {
  warmupSec: number;
  durationSec: number;
  windowSec: number;
  /** Idle time after the load before the descriptors are counted (longer than the sandbox's idle timeouts). */
  settleSec: number;
  limits: SoakLimits;
}

/** The configured keys the soak's ledgers use (configured, so that no open-key policy may remove their workspaces). */
export const LEDGER_KEYS = ['sandbox-key', 'soak-steady', 'soak-faulted'];
export const CONTROL_KEYS = ['soak-control-1', 'soak-control-2'];

export interface SoakOutcome {
  backend: string;
  windows: SoakWindow[];
  baseline: ProcessSample;
  after: ProcessSample;
  newKeys: number;
  acknowledged: number;
  checks: Check[];
}

/** Readings of `pid` after `seconds` idle: the lowest of three, a second apart. */
async function settled(pid: number, seconds: number): Promise<ProcessSample> {
  await sleep(seconds * 1000);
  const samples: ProcessSample[] = [];
  for (let i = 0; i < 3; i++) {
    const s = sampleProcess(pid);
    if (s) samples.push(s);
    if (i < 2) await sleep(1000);
  }
  return { rssMb: Math.min(...samples.map((s) => s.rssMb)), fds: Math.min(...samples.map((s) => s.fds)) };
}

/** Sends SIGTERM: the ms until the process is gone; `killed` when it is still there after `limitMs`; `gone` when it had ended before. */
async function sigterm(server: ServerProcess, limitMs: number): Promise<number | 'killed' | 'gone'> {
  const gone = () => ['Z', undefined].includes(statFields(server.pid)?.[0]);
  if (gone()) return (await server.stop(), 'gone');
  const t0 = performance.now();
  process.kill(server.pid, 'SIGTERM');
  while (!gone() && performance.now() - t0 < limitMs) await sleep(20);
  const ms = performance.now() - t0;
  const exit = gone() ? ms : 'killed';
  if (exit === 'killed') process.kill(server.pid, 'SIGKILL');
  await server.stop();
  return exit;
}

/** One backend's soak under way: what its phases share. */
interface Run {
  backend: string;
  server: ServerProcess;
  settings: SoakSettings;
  work: Workload;
  controls: ControlWorkspace[];
  findings: Findings;
  windows: SoakWindow[];
  log: (line: string) => void;
  dataDir: string | undefined;
}

/** A client for one phase (its connections closed at the phase's end) and a fresh window. */
const contextOf = (run: Run): SoakContext => ({
  http: createSoakHttp(run.server.origin, run.settings.workers + run.controls.length + 2),
  findings: run.findings,
  window: new WindowRecorder(),
});

function logWindow(run: Run, w: SoakWindow): void {
  const rss = `RSS ${w.rssMinMb.toFixed(1).padStart(6)}-${w.rssMaxMb.toFixed(1).padStart(6)} MB`;
  const rate = `${w.rps.toFixed(0).padStart(5)} req/s  p99 ${w.p99.toFixed(1).padStart(6)} ms`;
  const counts = `fds ${String(w.fds).padStart(4)}${w.files === undefined ? '' : `  files ${w.files}`}  new keys ${w.newKeys}  streams ${w.streams}  unexpected ${w.unexpected}`;
  run.log(`  [${run.backend}] ${w.phase.padEnd(7)} ${String(w.atSec).padStart(4)} s ${rate}  ${rss}  ${counts}`);
}

/** The load for `seconds`, read in windows: the process sampled once a second, each window's figures logged and kept. */
async function runPhase(run: Run, phase: SoakWindow['phase'], seconds: number): Promise<void> {
  const { server, settings, findings, dataDir } = run;
  const ctx = contextOf(run);
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  const traffic = runTraffic(ctx, run.work, run.controls, settings, until);
  for (let start = t0; start < until;) {
    const end = Math.min(start + settings.windowSec * 1000, until);
    const samples: ProcessSample[] = [];
    const unexpected = findings.unexpected;
    while (performance.now() < end) {
      await sleep(Math.min(1000, end - performance.now()));
      const s = sampleProcess(server.pid);
      if (s) samples.push(s);
    }
    const w = ctx.window.take(phase, Math.round((end - t0) / 1000), (end - start) / 1000, findings.unexpected - unexpected, samples);
    if (dataDir) w.files = readdirSync(dataDir).length;
    run.windows.push(w);
    logWindow(run, w);
    start = end;
  }
  await traffic;
  ctx.http.close();
}

/** Runs the soak on a started sandbox (`--open-keys`, the keys above configured); stops it with SIGTERM at the end. `dataDir`: its data folder, whose files are counted. */
export async function soakOne(
  backend: string,
  server: ServerProcess,
  settings: SoakSettings,
  log: (line: string) => void,
  dataDir?: string,
): Promise<SoakOutcome> {
  const ledgers = LEDGER_KEYS.map((key) => new LedgerWorkspace(key, settings.seeded));
  // The last ledger workspace gets the faults; new keys are new to this run.
  const work: Workload = { ledgers, faulted: ledgers.at(-1) as LedgerWorkspace, newKeyPrefix: `soak-${randomBytes(4).toString('hex')}`, newKeys: 0 };
  const controls = CONTROL_KEYS.map((key) => new ControlWorkspace(key, settings.seeded));
  const run: Run = { backend, server, settings, work, controls, findings: new Findings(), windows: [], log, dataDir };
  const { findings, windows } = run;

  await runPhase(run, 'warm-up', settings.warmupSec);
  const baseline = await settled(server.pid, settings.settleSec);
  log(`  [${backend}] baseline after the warm-up and ${settings.settleSec} s idle: RSS ${baseline.rssMb.toFixed(1)} MB, ${baseline.fds} descriptors`);
  await runPhase(run, 'load', settings.durationSec);
  const after = await settled(server.pid, settings.settleSec);
  log(`  [${backend}] after the load and ${settings.settleSec} s idle: RSS ${after.rssMb.toFixed(1)} MB, ${after.fds} descriptors; checking the ledger`);
  const ctx = contextOf(run);
  await verifyAll(ctx, work.ledgers, controls);
  ctx.http.close();
  const exit = await sigterm(server, settings.limits.sigtermMs);
  const load = windows.filter((w) => w.phase === 'load');
  const checks = [
    memoryCheck(load, settings.limits),
    diskCheck(load),
    descriptorCheck(baseline, after, settings.limits),
    ledgerCheck(findings.lost, findings.acknowledged),
    answersCheck(findings.unexpected, findings.firstUnexpected),
    sigtermCheck(exit, settings.limits),
  ].filter((c) => c !== undefined);
  return { backend, windows, baseline, after, newKeys: work.newKeys, acknowledged: findings.acknowledged, checks };
}
