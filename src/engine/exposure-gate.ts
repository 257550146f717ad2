/**
 * The exposure rule, one for every way in: decided in the dispatcher
 * (engine.ts applies it, with what it costs per request: a lookup of the
 * Host values already allowed, a test of the peer's address), on the peer
 * address a way in saw (`EngineRequest.peer`). A request made in
 * process (MSW, the library's `fetch`, a fetch handler given no address)
 * crossed no network and is not judged.
 *
 * 1. The `Host` a request was sent to must be an IP address, a localhost
 *    name, the host the sandbox listens on, or a name of `--allowed-hosts`:
 *    a web page whose name was rebound to 127.0.0.1 sends its own name, and
 *    is refused before anything else runs (DNS rebinding).
 * 2. While the documented key or admin token is accepted, or the admin token
 *    is shorter than 16 characters, only this machine (a loopback peer) is
 *    answered: anyone on a network could read and wipe the data with them.
 *
 * The probes (`/livez`, `/readyz`) and `/metrics` are open to both: a load
 * balancer and a scraper ask them by any name and from any address, and
 * they carry no secret (`/metrics` has its own token).
 */
import { hostAllowed, hostNameOf, MIN_ADMIN_TOKEN_LENGTH } from '../config/allowed-hosts.js';
import { DEFAULT_ADMIN_TOKEN, DEFAULT_API_KEY, type Config } from '../config/config-of.js';
import { echo } from '../kernel/echo.js';
import { errorAnswer } from '../kernel/error-exit.js';
import { ApiError } from '../kernel/errors.js';
import type { EngineRequest, EngineResponse, OutHeaders } from '../kernel/types.js';

export type ExposureConfig = Pick<Config, 'host' | 'allowedHosts' | 'apiKeys' | 'adminToken'>;

/** Why a configuration answers only loopback peers, each naming the option that lifts it; none: it answers any peer. */
export function loopbackOnlyReasons(config: Pick<Config, 'apiKeys' | 'adminToken'>): string[] {
  const reasons: string[] = [];
  if (config.apiKeys.includes(DEFAULT_API_KEY))
    reasons.push(
      `it accepts the documented API key '${DEFAULT_API_KEY}' (set keys of your own with --api-keys-file, PETSTORE_API_KEYS_FILE, or the option apiKeys)`,
    );
  if (config.adminToken === DEFAULT_ADMIN_TOKEN)
    reasons.push(
      `its admin token is the documented '${DEFAULT_ADMIN_TOKEN}' (set one with --admin-token-file, PETSTORE_ADMIN_TOKEN_FILE, or the option adminToken)`,
    );
  else if (config.adminToken.length < MIN_ADMIN_TOKEN_LENGTH)
    reasons.push(
      `its admin token is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters (set a longer one with --admin-token-file, PETSTORE_ADMIN_TOKEN_FILE, or the option adminToken)`,
    );
  return reasons;
}

/** The exposure rule of a configuration, as the dispatcher applies it (engine.ts, `gate`). */
export interface ExposureRule {
  /** The 403 of a peer that is not loopback, while the documented secrets are accepted; undefined when any peer is answered. */
  readonly loopbackOnly: ApiError | undefined;
  /** The 403 of a request sent to `host` (a `Host` header's value), or undefined when that host is allowed. */
  judgeHost(host: string): ApiError | undefined;
}

export function exposureRule(config: ExposureConfig): ExposureRule {
  const reasons = loopbackOnlyReasons(config);
  return {
    loopbackOnly:
      reasons.length === 0 ? undefined : ApiError.of('forbidden', `This sandbox answers only this machine (loopback), because ${reasons.join(', and ')}.`),
    judgeHost(host) {
      const name = hostNameOf(host);
      if (name !== undefined && hostAllowed(name, config.host, config.allowedHosts)) return undefined;
      return ApiError.of(
        'forbidden',
        `Requests sent to the host ${echo(host, '"')} are refused: only localhost, an IP address or the listening host are answered, else a name listed in --allowed-hosts (PETSTORE_ALLOWED_HOSTS, or the option allowedHosts). This stops DNS rebinding.`,
      );
    },
  };
}

/** The exposure rule's 403 of a request, with its id and no CORS header: a page refused here learns nothing more. */
export function refusedAnswer(refusal: ApiError, request: EngineRequest, requestId: string): EngineResponse {
  const out: OutHeaders = { 'X-Request-Id': requestId };
  const { status, text } = errorAnswer(refusal, out, request);
  return { status, headers: out, body: request.method === 'HEAD' ? undefined : text };
}
