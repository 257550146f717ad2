import Dredd, { type DreddStats } from 'dredd';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { SPEC_FILE } from '../../src/config/paths.js';
import { bundleHooks } from './bundle-hooks.js';
import { SETTINGS_ENV, skipReasons, transactionName } from './settings.js';

// The package's spec, found from wherever this code runs: contracts/ in a checkout, dist/verify/ in the package.
export { SPEC_FILE };

// Dredd's reporter writes pass/fail lines through its own logger, which `loglevel` does not silence.
// Required, not imported: how an ESM default import sees this CommonJS module differs between loaders.
const reporterOutput = (
  createRequire(import.meta.url)('dredd/build/reporters/reporterOutputLogger.js') as { default: { transports: { console: { silent: boolean } } } }
).default;

export interface DreddOptions {
  /** Base URL of the deployment including its base path, e.g. `http://127.0.0.1:4010/v1`. */
  endpoint: string;
  /** API key sent as `Authorization: Bearer <key>`. */
  key: string;
  /** Origin serving `/__sandbox`; without it the hooks ask the API itself for an existing id. */
  adminUrl?: string;
  adminToken?: string;
  /** Check bodies against the spec in an afterEach hook. Default true. */
  validateBodies?: boolean;
  /** Print Dredd's own report (pass/fail lines). Default false. */
  print?: boolean;
  /**
   * With `adminUrl`: ask each 401 of the key's workspace (the key sent and
   * refused once through the control plane) instead of sending no key, so
   * that the workspace's journal and coverage count it. Default false.
   */
  keyedRefusals?: boolean;
  /** A spec the sandbox was loaded with (spec-plan.ts) instead of the Pet Store's: its hooks follow its plan. */
  spec?: { file: string; dreddFile: string; planFile: string };
}

export interface DreddResult {
  /** Dredd's transaction name, e.g. `/pets > Add an animal > 400 > application/json`. */
  name: string;
  status: 'pass' | 'fail' | 'skip' | 'error';
  /** Why it failed (Dredd's validation messages and the spec check's problems). */
  message: string;
  /** From the request's start to Dredd's verdict. */
  durationMs: number;
  /** The request as sent (`uri` is the path and query), once the hooks had set it up. */
  request?: DreddExchange['request'];
  /** The answer, when there was one. */
  response?: DreddExchange['real'];
  /** The status the spec documents for this transaction. */
  expectedStatus?: string;
}

/** The request, the expected and the real response, as Dredd reports them with a test. */
export interface DreddExchange {
  request?: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected?: { statusCode?: string | number };
  real?: { statusCode: number | string; headers: Record<string, string>; body: string };
}

export interface DreddReport {
  ok: boolean;
  stats: DreddStats;
  results: DreddResult[];
}

interface DreddTest {
  title?: string;
  message?: string;
  origin?: { resourceName?: string; actionName?: string; exampleName?: string };
  startedAt?: number;
  request?: DreddExchange['request'];
  expected?: DreddExchange['expected'];
  actual?: DreddExchange['real'];
}

/** What a report needs of a test besides its verdict. */
const exchangeOf = (test: DreddTest) => ({
  durationMs: test.startedAt ? Math.max(0, Date.now() - test.startedAt) : 0,
  request: test.request,
  response: test.actual,
  expectedStatus: test.expected?.statusCode === undefined ? undefined : String(test.expected.statusCode),
});

const nameOf = (test: DreddTest) => transactionName(test);

// Dredd's hooks read their settings from process.env, so two runs in one process must not overlap.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs Dredd over every transaction of spec/openapi.yaml against `endpoint`,
 * with the project's hooks, and reports each transaction's outcome.
 */
export function runDredd(options: DreddOptions): Promise<DreddReport> {
  const run = queue.then(() => runOnce(options));
  queue = run.catch(() => undefined);
  return run;
}

async function runOnce(options: DreddOptions): Promise<DreddReport> {
  const bundle = await bundleHooks();
  const saved = Object.fromEntries(Object.values(SETTINGS_ENV).map((name) => [name, process.env[name]]));
  const settings = {
    [SETTINGS_ENV.key]: options.key,
    [SETTINGS_ENV.adminUrl]: options.adminUrl,
    [SETTINGS_ENV.adminToken]: options.adminToken,
    [SETTINGS_ENV.spec]: options.spec?.file ?? SPEC_FILE,
    [SETTINGS_ENV.keyedRefusals]: options.keyedRefusals ? '1' : undefined,
    [SETTINGS_ENV.plan]: options.spec?.planFile,
  };
  for (const [name, value] of Object.entries(settings)) {
    if (value) process.env[name] = value;
    else delete process.env[name];
  }
  reporterOutput.transports.console.silent = !options.print;
  try {
    const conditions = options.spec ? bundle.specConditions : bundle.conditions;
    return await runDreddWith(options, [conditions, ...(options.validateBodies === false ? [] : [bundle.validation])]);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await bundle.remove();
  }
}

/** One Dredd run with these (bundled) hook files, its settings already in the environment. */
function runDreddWith(options: DreddOptions, hookfiles: string[]): Promise<DreddReport> {
  const results: DreddResult[] = [];
  const emitter = new EventEmitter();
  const skips = skipReasons();
  skips.clear();
  // A skip's reason is the hooks' (Dredd's own message says only that a hook skipped it).
  const messageOf = (status: DreddResult['status'], test: DreddTest) =>
    status === 'pass' ? ''
    : status === 'skip' ? (skips.get(nameOf(test)) ?? test.message ?? '')
    : (test.message ?? '');
  const record = (status: DreddResult['status']) => (test: DreddTest) =>
    results.push({ name: nameOf(test), status, message: messageOf(status, test), ...exchangeOf(test) });
  emitter.on('test pass', record('pass'));
  emitter.on('test fail', record('fail'));
  emitter.on('test skip', record('skip'));
  emitter.on('test error', (error: Error, test: DreddTest) =>
    results.push({ name: nameOf(test), status: 'error', message: error.message, ...exchangeOf(test) }),
  );

  const dredd = new Dredd({
    endpoint: options.endpoint,
    path: [options.spec?.dreddFile ?? SPEC_FILE],
    hookfiles,
    loglevel: options.print ? 'error' : 'silent',
    color: false,
    emitter,
  });
  return new Promise<DreddReport>((resolve, reject) => {
    dredd.run((error, stats) => {
      if (error) reject(error);
      else resolve({ ok: stats.failures === 0 && stats.errors === 0 && stats.tests > 0, stats, results });
    });
  });
}
