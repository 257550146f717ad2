import type { Config } from '../config/load.js';
import { ApiError } from '../kernel/errors.js';
import { VIOLATIONS_HEADER, violationsHeader } from '../modes/proxy/header.js';
import type { ForwardReply, PassThroughMode } from '../modes/proxy/types.js';
import type { Exchange } from './exchange.js';
import type { Target } from './match.js';
import type { PassedAnswer } from './exchange.js';
import { rawBytes } from '../kernel/json.js';
import type { EngineHeaders, EngineRequest } from '../kernel/types.js';

export interface ForwardingDeps {
  config: Pick<Config, 'bodyLimit' | 'upstreamKey'>;
  passThrough?: PassThroughMode | undefined;
  authenticate: (headers: EngineHeaders) => string;
  fail: (ex: Exchange, error: unknown) => Exchange;
  pass: (ex: Exchange, answer: PassedAnswer) => Exchange;
}

/** Node's `rawHeaders` shape of a request that came without them (in process): lower-case names, a repeated one once per value. */
function rawHeadersOf(request: EngineRequest): readonly string[] {
  if (request.rawHeaders) return request.rawHeaders;
  const raw: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) raw.push(name, one);
  }
  return raw;
}

const noUpstream = () => ApiError.of('not_implemented', "Mode 'proxy' passes requests on to an upstream, and this sandbox has none: start it with --upstream.");

/**
 * Proxy mode's branch of the /v1 pipeline, in place of its stages after
 * CORS and the match: the caller's key is checked only when the sandbox
 * sends its own upstream key (else the upstream judges it, and a key the
 * sandbox knows files the exchange in that key's journal); the body is read
 * as sent, within the limit; what the request breaks of the spec is known
 * before it goes, so an answer of the sandbox's own (a 502) reports it too.
 * The upstream is reached through the `PassThroughMode` handed in; without
 * one, proxy mode is refused (501), never answered by another mode.
 */
export function createForwarding({
  config,
  passThrough,
  authenticate,
  fail,
  pass,
}: ForwardingDeps): (ex: Exchange, key: string | undefined) => Promise<Exchange> | Exchange {
  const refused = (ex: Exchange, error: unknown) => {
    const listed = ex.violations && violationsHeader(ex.violations);
    if (listed) ex.out[VIOLATIONS_HEADER] = listed;
    return fail(ex, error);
  };
  const passed = (ex: Exchange, reply: ForwardReply) => {
    const listed = violationsHeader(reply.violations);
    return pass(ex, { ...reply, headers: listed ? [...reply.headers, [VIOLATIONS_HEADER, listed]] : reply.headers });
  };

  /** `key`: the caller's when the sandbox accepts it (its journal then files the exchange), else undefined: the unauthenticated journal. */
  return (ex, key) => {
    if (!passThrough) return fail(ex, noUpstream());
    const { request } = ex;
    const target = ex.target?.route ? (ex.target as Target) : undefined;
    try {
      // With an upstream key of its own the sandbox sends, the caller must have a key the sandbox accepts.
      ex.key = config.upstreamKey ? (key ?? authenticate(request.headers)) : key;
      const bytes = request.body === undefined ? undefined : rawBytes(request.body, config.bodyLimit);
      return Promise.resolve(bytes)
        .then((body) => {
          if (body) ex.bytes = body;
          const forwarded = {
            method: request.method,
            headers: request.headers,
            rawHeaders: rawHeadersOf(request),
            op: target?.route.op,
            params: target?.params ?? {},
            query: target?.query ?? {},
            url: request.url.slice('/v1'.length),
            body,
            signal: request.signal,
          };
          const asked = passThrough.check(forwarded);
          ex.violations = asked;
          return passThrough.forward(forwarded, asked);
        })
        .then(
          (reply) => passed(ex, reply),
          (error: unknown) => refused(ex, error),
        );
    } catch (error) {
      return refused(ex, error);
    }
  };
}
