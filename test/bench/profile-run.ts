/**
 * `npm run profile`: CPU profiles of the sandbox under load, one server
 * process per scenario so that each profile is that scenario's alone. Each
 * runs the built server with its default settings (request log on, its
 * stdout written to a file) under `node --cpu-prof`, loads it with
 * autocannon for a few seconds, stops it with SIGTERM (it then writes its
 * profile) and prints Markdown tables of where the CPU went (profile-table.ts).
 * Profiles and logs go to the ignored .bench/profiles/<time>/.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { summarize, type CpuProfile } from './cpu-profile.js';
import { runLoad } from './load.js';
import { only, positive } from './options.js';
import { freePort, killAll, SANDBOX_BIN, start } from './processes.js';
import { renderProfile } from './profile-table.js';
import { NEW_PET } from './scenarios.js';

interface ProfileScenario {
  name: string;
  /** The `--only` name that keeps it: `get` or `post`. */
  group: string;
  path: string;
  connections: number;
  body?: string;
}

const SCENARIOS: ProfileScenario[] = [
  { name: 'GET /v1/pets, c50', group: 'get', path: '/pets', connections: 50 },
  { name: 'GET /v1/pets/{id}, c10', group: 'get', path: '/pets/1', connections: 10 },
  { name: 'POST /v1/pets, c100', group: 'post', path: '/pets', connections: 100, body: NEW_PET },
].filter((s) => only.has(s.group));
const durationSec = positive(process.env.BENCH_DURATION, 5);
const out = join(PACKAGE_ROOT, '.bench', 'profiles', new Date().toISOString().replaceAll(':', '-'));

/** One scenario: a fresh data folder (seeded with 50 pets), the server under --cpu-prof, the load, the stop; the summary's tables. */
async function profileOne(scenario: ProfileScenario, index: number): Promise<string> {
  const dir = join(out, String(index + 1));
  mkdirSync(dir, { recursive: true });
  const logFd = openSync(join(dir, 'requests.log'), 'w');
  const port = await freePort();
  try {
    const server = await start({
      name: scenario.name,
      args: ['--cpu-prof', '--cpu-prof-dir', dir, SANDBOX_BIN, '--port', String(port), '--data', join(dir, 'data', 'db.json')],
      origin: `http://127.0.0.1:${port}`,
      prefix: '/v1',
      timeoutMs: 120_000,
      stdout: logFd,
    });
    const result = await runLoad({
      url: `${server.base}${scenario.path}`,
      connections: scenario.connections,
      durationSec,
      ...(scenario.body ? { body: scenario.body } : {}),
    });
    await server.stop();
    if (result.non2xx + result.errors > 0) throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`${scenario.name}: the server wrote no .cpuprofile in ${dir}`);
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const logKb = Math.round(statSync(join(dir, 'requests.log')).size / 1024);
    const head = `${Math.round(result.rps)} requests/s over ${durationSec} s (${result.requests} requests; request log ${logKb} KiB).`;
    return renderProfile(scenario.name, summarize(profile, PACKAGE_ROOT)).replace('\n\n', `\n\n${head} `);
  } finally {
    closeSync(logFd);
  }
}

/** Runs the scenarios one after the other; the exit code. */
export async function runProfiles(): Promise<number> {
  const [before = 0] = loadavg();
  console.log(
    `profile: ${SCENARIOS.length} scenarios of ${durationSec} s; ${cpus().length} cores, Node ${process.version}; load average ${before.toFixed(2)}; files in ${out}\n`,
  );
  try {
    for (const [i, scenario] of SCENARIOS.entries()) console.log(`${await profileOne(scenario, i)}\n`);
    console.log(`load average after: ${(loadavg()[0] ?? 0).toFixed(2)}`);
    return 0;
  } catch (error) {
    console.error(`profile: ${(error as Error).message}`);
    killAll();
    return 1;
  }
}
