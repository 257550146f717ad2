import type { Runtime } from '../kernel/operation.js';
import type { AnsweredRequest, V1Exchange } from '../kernel/operation.js';
import type { ErrorCode } from '../kernel/errors.js';
import type { Logger, RequestLine } from '../kernel/logger.js';

/** A request Node's parser refused before any handler saw it, and the status it was answered with. */
export interface RefusedRequest {
  status: number;
  code: ErrorCode;
}
/** The path of a request target, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** Milliseconds to two decimals: enough for a person, short in a line. */
const rounded = (ms: number) => Math.round(ms * 100) / 100;

/**
 * The request log's lines: one per answered request, /v1 or not. A line
 * names the workspace by its id (a keyed hash), never by its key, and has
 * no header, no query string and no body: nothing a client sent as a secret.
 */
export function createRequestLog(logger: Logger, workspaceOf: (key: string) => string, runtime: Runtime) {
  return {
    v1(e: V1Exchange): void {
      const line: RequestLine = {
        requestId: e.requestId,
        method: e.method,
        path: pathOf(e.url),
        status: e.status,
        durationMs: rounded(e.durationMs),
        operation: e.op?.operationId,
        workspace: e.key === undefined ? undefined : workspaceOf(e.key),
        mode: runtime.mode,
      };
      logger.request(line);
    },
    /** A request refused before it was read: its own line, for it has no id, method, path or duration to show. */
    refused(r: RefusedRequest): void {
      logger.info('request refused before it was read', { status: r.status, code: r.code, mode: runtime.mode });
    },
    other(e: AnsweredRequest): void {
      logger.request({
        requestId: e.requestId,
        method: e.method,
        path: pathOf(e.url),
        status: e.status,
        durationMs: rounded(e.durationMs),
        operation: e.operation,
        workspace: undefined,
        mode: runtime.mode,
      });
    },
  };
}
