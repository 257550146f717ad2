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
}

/** The settings the runner left in the environment; throws naming what is missing. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): HookSettings {
  const key = env[SETTINGS_ENV.key];
  const spec = env[SETTINGS_ENV.spec];
  if (!key) throw new Error(`${SETTINGS_ENV.key} is not set: the Dredd hooks need the API key.`);
  if (!spec) throw new Error(`${SETTINGS_ENV.spec} is not set: the Dredd hooks need the spec file.`);
  const adminUrl = env[SETTINGS_ENV.adminUrl] || undefined;
  const keyedRefusals = adminUrl !== undefined && env[SETTINGS_ENV.keyedRefusals] === '1';
  return { key, spec, adminUrl, adminToken: env[SETTINGS_ENV.adminToken] || 'sandbox-admin', keyedRefusals };
}
