import type { Config } from '../config/load.js';
import { bearerToken, createKeyMatcher } from '../kernel/auth.js';
import { ApiError } from '../kernel/errors.js';
import type { EngineHeaders } from '../kernel/types.js';

/**
 * A credential check of the control plane, a function of the request's
 * headers: it throws the 401 or 403, or returns the API key that opened the
 * operation (undefined when the admin token or nothing was needed).
 */
export type CredentialCheck = (headers: EngineHeaders) => string | undefined;

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
const tokenOf = (headers: EngineHeaders) => bearerToken({ authorization: single(headers.authorization) });
const CONTROL_REALM = { 'WWW-Authenticate': 'Bearer realm="sandbox-control"' };

/** Only an admin token opens the control plane: none is 401, an API key or a wrong token 403. */
export function adminOnly(adminToken: string, apiKeys: readonly string[]): CredentialCheck {
  const isAdmin = createKeyMatcher([adminToken]);
  const isApiKey = createKeyMatcher(apiKeys);
  return (headers) => {
    const token = tokenOf(headers);
    if (token === undefined) throw ApiError.of('unauthorized', 'The control plane needs the admin token: Authorization: Bearer <admin token>.', CONTROL_REALM);
    if (!isAdmin(token))
      throw ApiError.of('forbidden', isApiKey(token) ? 'API keys cannot use the control plane; send the admin token.' : 'Wrong admin token.');
    return undefined;
  };
}

/**
 * For operations an API key opens too (`apiKey` in the route table): the
 * admin token as everywhere, or an API key, which acts on its own workspace
 * only (returned, so the operation acts on it). With `--open-keys` any
 * well-formed token is an API key, as on `/v1`.
 */
export function adminOrApiKey(config: Pick<Config, 'adminToken' | 'apiKeys' | 'openKeys'>): CredentialCheck {
  const isAdmin = createKeyMatcher([config.adminToken]);
  const isApiKey = config.openKeys ? () => true : createKeyMatcher(config.apiKeys);
  return (headers) => {
    const token = tokenOf(headers);
    if (token === undefined) throw ApiError.of('unauthorized', 'Send the admin token or an API key: Authorization: Bearer <token>.', CONTROL_REALM);
    if (isAdmin(token)) return undefined;
    if (!isApiKey(token)) throw ApiError.of('forbidden', 'Neither the admin token nor an API key.');
    const named = headers['x-sandbox-key'];
    if (named !== undefined && named !== token)
      throw ApiError.of('forbidden', 'An API key acts on its own workspace only; leave X-Sandbox-Key out or send the admin token.');
    return token;
  };
}

/** With `--metrics-token`, only that token opens `/metrics`: none is 401, any other 403. Without one, nothing is asked. */
export function metricsTokenOnly(token: string | undefined): CredentialCheck {
  if (token === undefined) return () => undefined;
  const isToken = createKeyMatcher([token]);
  return (headers) => {
    const given = tokenOf(headers);
    if (given === undefined)
      throw ApiError.of('unauthorized', '/metrics needs the metrics token: Authorization: Bearer <metrics token>.', {
        'WWW-Authenticate': 'Bearer realm="sandbox-metrics"',
      });
    if (!isToken(given)) throw ApiError.of('forbidden', 'Wrong metrics token.');
    return undefined;
  };
}
