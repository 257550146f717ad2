import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/load.js';
import type { Exchange } from '../core/exchange.js';
import type { Target } from '../core/match.js';
import type { EngineHeaders, EngineResponse } from '../core/types.js';
import type { V1Engine } from '../core/v1-engine.js';
import { bearerToken } from '../http/auth.js';
import { readRawBody } from '../http/read-json-body.js';
import { requestSignal } from '../http/request-signal.js';
import { VIOLATIONS_HEADER, violationsHeader } from '../modes/proxy/header.js';
import type { Runtime } from '../core/operation.js';
import type { ForwardReply, PassThroughMode } from '../modes/proxy/types.js';

export interface ForwarderDeps {
  config: Pick<Config, 'bodyLimit' | 'upstreamKey'>;
  runtime: Runtime;
  passThrough?: PassThroughMode | undefined;
  engine: V1Engine;
}

/** Proxy mode's branch of the Node adapter: whether it is taken, and the branch itself. */
export interface Forwarder {
  forwarding(): boolean;
  /** Passes a request on as it came; `write` gets the answer (the upstream's, or the sandbox's own refusal). */
  forward(req: IncomingMessage, res: ServerResponse, ex: Exchange, write: (response: EngineResponse) => void): void;
}

/**
 * Proxy mode's whole chain, in place of the engine's stages after CORS and
 * the match: bytes as sent to a network upstream are transport by nature,
 * so this stays in the Node adapter (the engine does not forward). The
 * caller's key is checked only when the sandbox sends its own upstream
 * (else the upstream judges it, and one the sandbox knows files the
 * exchange in that key's journal); the body is read as bytes within the
 * limit; the rest is the mode's. The exchange is reported by the engine.
 */
export function createForwarder({ config, runtime, passThrough, engine }: ForwarderDeps): Forwarder {
  const forwarding = () => passThrough !== undefined && runtime.mode === 'proxy';
  /** The caller's key when the sandbox knows it (its journal is then readable); else none: the unauthenticated journal. */
  const known = (headers: EngineHeaders): string | undefined => {
    if (bearerToken(headers) === undefined) return undefined;
    try {
      return engine.authenticate(headers);
    } catch {
      return undefined;
    }
  };
  const passed = (ex: Exchange, reply: ForwardReply) => {
    const listed = violationsHeader(reply.violations);
    return engine.pass(ex, { ...reply, headers: listed ? [...reply.headers, [VIOLATIONS_HEADER, listed]] : reply.headers });
  };

  function forward(req: IncomingMessage, res: ServerResponse, ex: Exchange, write: (response: EngineResponse) => void): void {
    const target = ex.target?.route ? (ex.target as Target) : undefined;
    const fail = (error: unknown) => {
      const listed = ex.violations && violationsHeader(ex.violations);
      if (listed) ex.out[VIOLATIONS_HEADER] = listed;
      write(engine.fail(ex, error));
    };
    // Before the first wait: a client that leaves while its body is read or the upstream answers stops the exchange.
    const signal = requestSignal(res);
    try {
      ex.key = config.upstreamKey ? engine.authenticate(req.headers) : known(req.headers);
      const url = ex.request.url.slice('/v1'.length);
      readRawBody(req, config.bodyLimit)
        .then((body) => {
          if (body) ex.bytes = body;
          const mode = passThrough as PassThroughMode;
          const request = { req, op: target?.route.op, params: target?.params ?? {}, query: target?.query ?? {}, url, body, signal };
          const asked = mode.check(request);
          ex.violations = asked;
          return mode.forward(request, asked);
        })
        .then((reply) => {
          // Nothing of the sandbox's own is added to an upstream's answer, not even what Express set before.
          for (const name of res.getHeaderNames()) res.removeHeader(name);
          write(passed(ex, reply));
        })
        .catch(fail);
    } catch (error) {
      fail(error);
    }
  }

  return { forwarding, forward };
}
