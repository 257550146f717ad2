/**
 * What the Dredd hooks need to know. Dredd loads hook files itself, so the
 * runner hands these over through the environment.
 */
export const SETTINGS_ENV = {
  key: 'PETSTORE_CONTRACT_KEY',
  adminUrl: 'PETSTORE_CONTRACT_ADMIN_URL',
  adminToken: 'PETSTORE_CONTRACT_ADMIN_TOKEN',
  spec: 'PETSTORE_CONTRACT_SPEC',
  keyedRefusals: 'PETSTORE_CONTRACT_KEYED_REFUSALS',
  plan: 'PETSTORE_CONTRACT_PLAN',
} as const;

export interface HookSettings {
  /** The API key sent as `Authorization: Bearer <key>`. */
  key: string;
  /** The origin serving `/__sandbox`, if the deployment has a control plane. */
  adminUrl: string | undefined;
  adminToken: string;
  /** The spec file responses are checked against. */
  spec: string;
  /**
   * A 401 is asked of the key's workspace (the key sent, refused once by a
   * fault set through the control plane) rather than sent without a key:
   * then it is journaled, and counted, in that workspace.
   */
  keyedRefusals: boolean;
  /** A loaded spec's plan (spec-plan.ts), which its hooks follow. */
  plan: string | undefined;
}

/** The settings the runner left in the environment; throws naming what is missing. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): HookSettings {
  const key = env[SETTINGS_ENV.key];
  const spec = env[SETTINGS_ENV.spec];
  if (!key) throw new Error(`${SETTINGS_ENV.key} is not set: the Dredd hooks need the API key.`);
  if (!spec) throw new Error(`${SETTINGS_ENV.spec} is not set: the Dredd hooks need the spec file.`);
  const adminUrl = env[SETTINGS_ENV.adminUrl] || undefined;
  const keyedRefusals = adminUrl !== undefined && env[SETTINGS_ENV.keyedRefusals] === '1';
  return { key, spec, adminUrl, adminToken: env[SETTINGS_ENV.adminToken] || 'sandbox-admin', keyedRefusals, plan: env[SETTINGS_ENV.plan] || undefined };
}

/** Where a transaction came from in the spec, as Dredd names it with its tests. */
export interface DreddOrigin {
  resourceName?: string;
  actionName?: string;
  exampleName?: string;
}

/** A transaction's name in the reports: `/items > Add an item > 400 > application/json`. */
export const transactionName = (t: { origin?: DreddOrigin; name?: string; title?: string }): string =>
  t.origin ? [t.origin.resourceName, t.origin.actionName, t.origin.exampleName].join(' > ') : (t.name ?? t.title ?? '?');

const SKIPS = Symbol.for('petstore-sandbox.dredd.skip-reasons');

/**
 * Why the hooks skipped each transaction, by its name. Dredd reports a skip
 * only as "Skipped in before hook"; the hooks run in the runner's process
 * (Dredd loads them there), so the reasons are kept on the global object,
 * which the bundled hooks and the runner share.
 */
export function skipReasons(): Map<string, string> {
  const global = globalThis as { [SKIPS]?: Map<string, string> };
  return (global[SKIPS] ??= new Map());
}
