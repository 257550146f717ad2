import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError, toApiError } from '../http/error-handler.js';
import { ApiError } from '../http/errors.js';
import { sendJson } from '../http/send.js';
import type { Reply } from '../operation.js';
import { exchangeOf } from './exchange.js';
import type { Route } from './routes.js';

/** Writes a reply with the spec's fixed headers for its status; the exchange keeps what was sent. */
export function writeReply(res: ServerResponse, route: Route, reply: Reply): void {
  for (const [name, value] of route.fixedByStatus.get(reply.status) ?? []) res.setHeader(name, value);
  if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  const text = sendJson(res, reply.status, reply.body, reply.json);
  const exchange = exchangeOf(res);
  if (exchange) {
    exchange.body = reply.body;
    exchange.text = text;
  }
}

/** The one error exit: of the /v1 pipeline, of Express's routes and of the control plane. */
export type ErrorResponder = (req: IncomingMessage, res: ServerResponse, error: unknown) => void;

/**
 * Turns anything thrown into the spec's Error body (never an HTML page,
 * never a stack trace). Unexpected failures go to `onUnexpected` and are
 * answered with a generic 500. A request answered before its body arrived
 * whole closes its connection: the rest of the body is never read.
 */
export function createErrorResponder(onUnexpected: (error: unknown, req: IncomingMessage) => void): ErrorResponder {
  return (req, res, error) => {
    const api = toApiError(error);
    if (api.status >= 500 && !(error instanceof ApiError)) onUnexpected(error, req);
    if (!req.complete) res.shouldKeepAlive = false;
    const exchange = exchangeOf(res);
    const sent = sendError(res, api);
    if (exchange) {
      exchange.body = sent.body;
      exchange.text = sent.text;
    }
  };
}
