import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorAnswer, type Unexpected } from '../kernel/error-exit.js';
import type { OutHeaders } from '../kernel/types.js';
import { closeAfterAnswer } from './lingering-close.js';
import { writeEngineResponse } from './node-response.js';

/**
 * An error on a Node response, through the engine's one error exit (the
 * Error body, the error's headers, a 500's details to `onUnexpected` only):
 * a defect of the engine's own, or a failure of the router before it.
 * Already answered (the server answered a request its parser broke on while
 * the body was being read): nothing more can be said, the response is
 * destroyed. A request answered before its body arrived whole closes its
 * connection once the rest of the body is read and dropped, within bounds.
 */
export function writeError(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, error: unknown, onUnexpected?: Unexpected): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return;
  }
  closeAfterAnswer(req, res);
  const out: OutHeaders = {};
  const { status, text } = errorAnswer(error, out, { method: req.method ?? '', url: req.originalUrl ?? req.url ?? '' }, onUnexpected);
  void writeEngineResponse(res, { status, headers: out, body: text });
}
