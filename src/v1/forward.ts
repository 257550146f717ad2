import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken } from '../http/auth.js';
import { readRawBody } from '../http/read-json-body.js';
import { requestSignal } from '../http/request-signal.js';
import type { PassThroughMode } from '../operation.js';
import { exchangeOf } from './exchange.js';
import type { PipelineDeps, Pipeline, Target } from './pipeline-types.js';

/** Proxy mode's branch of the pipeline: whether it is taken, and the branch itself. */
export type Forwarder = Pick<Pipeline, 'forwarding' | 'forward'>;

/**
 * Proxy mode's whole chain, in place of the pipeline's: the caller's key
 * checked only when the sandbox sends its own upstream (else the upstream
 * judges it, and one the sandbox knows files the exchange in that key's
 * journal), the body read as bytes within the limit, the rest the mode's.
 */
export function createForwarder(deps: PipelineDeps & Pick<Pipeline, 'authenticate'>): Forwarder {
  const { config, runtime, respond, passThrough, authenticate } = deps;
  const forwarding = () => passThrough !== undefined && runtime.mode === 'proxy';
  /** The caller's key when the sandbox knows it (its journal is then readable); else none: the unauthenticated journal. */
  const known = (req: IncomingMessage): string | undefined => {
    if (bearerToken(req.headers) === undefined) return undefined;
    try {
      return authenticate(req);
    } catch {
      return undefined;
    }
  };

  function forward(req: IncomingMessage, res: ServerResponse, target: Target | undefined): void {
    const exchange = exchangeOf(res);
    if (exchange && target) exchange.op = target.route.op;
    const fail = (error: unknown) => respond.fail(req, res, error);
    // Before the first wait: a client that leaves while its body is read or the upstream answers stops the exchange.
    const signal = requestSignal(res);
    try {
      const key = config.upstreamKey ? authenticate(req) : known(req);
      if (exchange && key !== undefined) exchange.key = key;
      // The target as sent, after /v1: Express rewrites req.url, never originalUrl.
      const url = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').slice('/v1'.length);
      readRawBody(req, config.bodyLimit)
        .then((body) => {
          if (exchange && body) exchange.bytes = body;
          const mode = passThrough as PassThroughMode;
          const request = { req, op: target?.route.op, params: target?.params ?? {}, query: target?.query ?? {}, url, body, signal };
          const asked = mode.check(request);
          if (exchange) exchange.violations = asked;
          return mode.forward(request, asked);
        })
        .then((reply) => respond.pass(req, res, reply), fail);
    } catch (error) {
      fail(error);
    }
  }

  return { forwarding, forward };
}
