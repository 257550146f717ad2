import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestsInFlight } from '../adapters/node-middleware.js';
import { writeError } from '../adapters/node-error.js';
import { ApiError } from '../kernel/errors.js';
import type { RefusedRequest } from '../ops/request-log.js';

/** Seconds a request refused while the sandbox stops is told to wait (`Retry-After`): another instance, or this one restarted, answers it then. */
export const STOPPING_RETRY_AFTER_S = 1;

/**
 * The Node server's requests under way, for its stop (server/sandbox.ts):
 * the stores close only once those under way have their answers, so that a
 * write under way (a create, a control operation's one write) ends before
 * the log says `stopped` and none begins after. Once the stop has begun, a
 * request is not run: it is answered 503 `service_unavailable` with
 * `Retry-After` and `Connection: close`, and `onRefused` hears of it (the
 * request log, the metrics).
 */
export function serverRequestsInFlight(onRefused: (refused: RefusedRequest) => void): RequestsInFlight {
  return new RequestsInFlight((req: IncomingMessage, res: ServerResponse) => {
    const error = ApiError.of('service_unavailable', 'The sandbox is stopping and takes no new requests. Try again shortly.', {
      'Retry-After': String(STOPPING_RETRY_AFTER_S),
      Connection: 'close',
    });
    writeError(req, res, error);
    onRefused({ status: error.status, code: error.code });
  });
}
