import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError, toApiError } from '../http/error-handler.js';
import { ApiError } from '../http/errors.js';
import { assignRequestId } from '../http/request-id.js';
import { sendJson } from '../http/send.js';
import { VIOLATIONS_HEADER, violationsHeader } from '../modes/proxy/header.js';
import type { ForwardReply, Reply, V1Exchange, Violation } from '../operation.js';
import { exchangeOf, type Exchange, type Tracked } from './exchange.js';
import type { Route } from './routes.js';

/** The way out of the /v1 pipeline, for answers and errors alike, and the report of each exchange. */
export interface Responder {
  /** Starts tracking a /v1 request: its answer is reported to `onResponse` once written. */
  track(res: ServerResponse): Exchange;
  /** Writes a reply with the spec's fixed headers for its status. */
  reply(req: IncomingMessage, res: ServerResponse, route: Route, reply: Reply): void;
  /** Writes an upstream's answer as it came (proxy mode), with the `Sandbox-Violations` header when it broke the spec. */
  pass(req: IncomingMessage, res: ServerResponse, reply: ForwardReply): void;
  /** The one error exit: of the /v1 pipeline, of Express's routes and of the control plane. */
  fail(req: IncomingMessage, res: ServerResponse, error: unknown): void;
}

export interface ResponderHooks {
  /** Hears unexpected (500) failures, with the error; the client sees none of it. */
  onUnexpected?: (error: unknown, req: IncomingMessage) => void;
  /** Hears each /v1 answer once written (journal, metrics). */
  onResponse?: (event: V1Exchange) => void;
}

/** An upstream's answer as it came; nothing of the sandbox's own (CORS) is added to it. */
function writePassed(req: IncomingMessage, res: ServerResponse, reply: ForwardReply): void {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  for (const [name, value] of reply.headers) res.setHeader(name, value);
  const listed = violationsHeader(reply.violations);
  if (listed) res.setHeader(VIOLATIONS_HEADER, listed);
  res.statusCode = reply.status;
  if (req.method === 'HEAD') return void res.end();
  res.setHeader('Content-Length', reply.body.length);
  res.end(reply.body);
}

/** Reports an exchange as soon as it is written: no 'finish' listener per request on the hot path. */
function reporter(onResponse: ResponderHooks['onResponse']) {
  return (res: ServerResponse, exchange: Exchange, body: unknown, text: string | undefined, violations?: Violation[], passed = false) => {
    exchange.body = body;
    exchange.text = text;
    if (!onResponse) return;
    const req = res.req as IncomingMessage & { originalUrl?: string };
    onResponse({
      req,
      // Express rewrites req.url under a mount point; originalUrl is the target as sent.
      url: req.originalUrl ?? req.url ?? '',
      requestId: exchange.requestId,
      requestBytes: exchange.bytes,
      op: exchange.op,
      key: exchange.key,
      status: res.statusCode,
      body,
      text,
      durationMs: performance.now() - exchange.start,
      ...(violations ? { violations } : {}),
      ...(passed ? { passed } : {}),
    });
  };
}

/**
 * Answers never become an HTML page or a stack trace: anything thrown is
 * turned into the spec's Error body, an unexpected failure into a generic
 * 500. A request answered before its body arrived whole closes its
 * connection: the rest of the body is never read.
 */
export function createResponder({ onUnexpected, onResponse }: ResponderHooks): Responder {
  const report = reporter(onResponse);
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    // Already answered (the server answered a request its parser broke on while the body was being read):
    // nothing more can be said on this response.
    if (res.headersSent) {
      if (!res.writableEnded) res.destroy();
      return;
    }
    const api = toApiError(error);
    if (api.status >= 500 && !(error instanceof ApiError)) onUnexpected?.(error, req);
    if (!req.complete) res.shouldKeepAlive = false;
    const exchange = exchangeOf(res);
    const listed = exchange?.violations && violationsHeader(exchange.violations);
    if (listed) res.setHeader(VIOLATIONS_HEADER, listed);
    const sent = sendError(res, api);
    if (exchange?.start !== undefined) report(res, exchange as Exchange, sent.body, sent.text, exchange.violations);
  };
  /** A failure while writing goes to the error exit, or, once the head is sent, to the log only. */
  const guarded = (req: IncomingMessage, res: ServerResponse, write: () => void) => {
    try {
      write();
    } catch (error) {
      if (!res.headersSent) fail(req, res, error);
      else onUnexpected?.(error, req);
    }
  };
  return {
    track(res) {
      // Express's first step has given the request its id already; the fast path has not.
      const given = (res as Partial<{ locals: { requestId?: string } }>).locals?.requestId;
      const exchange: Exchange = { start: performance.now(), requestId: given ?? assignRequestId(res.req, res) };
      (res as Tracked).locals = exchange;
      return exchange;
    },
    reply(req, res, route, reply) {
      guarded(req, res, () => {
        for (const [name, value] of route.fixedByStatus.get(reply.status) ?? []) res.setHeader(name, value);
        if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
        const text = sendJson(res, reply.status, reply.body, reply.json, reply.byteLength);
        const exchange = exchangeOf(res);
        if (exchange?.start !== undefined) report(res, exchange as Exchange, reply.body, text);
      });
    },
    pass(req, res, reply) {
      guarded(req, res, () => {
        writePassed(req, res, reply);
        const exchange = exchangeOf(res);
        if (exchange?.start !== undefined) report(res, exchange as Exchange, reply.value, reply.text, reply.violations, true);
      });
    },
    fail,
  };
}
