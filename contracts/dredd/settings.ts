/**
 * What the Dredd hooks need to know. Dredd loads hook files itself, so the
 * runner hands these over through the environment.
 */
export const SETTINGS_ENV = {
  key: 'PETSTORE_CONTRACT_KEY',
  adminUrl: 'PETSTORE_CONTRACT_ADMIN_URL',
  adminToken: 'PETSTORE_CONTRACT_ADMIN_TOKEN',
  spec: 'PETSTORE_CONTRACT_SPEC',
} as const;

export interface HookSettings {
  /** The API key sent as `Authorization: Bearer <key>`. */
  key: string;
  /** The origin serving `/__sandbox`, if the deployment has a control plane. */
  adminUrl: string | undefined;
  adminToken: string;
  /** The spec file responses are checked against. */
  spec: string;
}

/** The settings the runner left in the environment; throws naming what is missing. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): HookSettings {
  const key = env[SETTINGS_ENV.key];
  const spec = env[SETTINGS_ENV.spec];
  if (!key) throw new Error(`${SETTINGS_ENV.key} is not set: the Dredd hooks need the API key.`);
  if (!spec) throw new Error(`${SETTINGS_ENV.spec} is not set: the Dredd hooks need the spec file.`);
  return { key, spec, adminUrl: env[SETTINGS_ENV.adminUrl] || undefined, adminToken: env[SETTINGS_ENV.adminToken] || 'sandbox-admin' };
}
