import type { ResponseCheck } from '../control/journal.js';
import type { Logger } from '../logger.js';
import type { AnsweredRequest, Runtime, V1Exchange } from '../operation.js';
import type { RefusedRequest } from '../http/server.js';
import type { Metrics } from './metrics.js';
import { createRequestLog } from './request-log.js';

/**
 * Whether a /v1 answer matched the spec, checked for every answer. The
 * last answer of each operation and status is remembered: a page served
 * again is the same string, checked once.
 */
function createMatchCheck(check: ResponseCheck): (e: V1Exchange) => boolean {
  const last = new Map<string, { text: string; valid: boolean }>();
  return (e) => {
    const operationId = e.op?.operationId ?? null;
    if (e.text === undefined) return check(operationId, e.status, e.body);
    const key = `${operationId} ${e.status}`;
    const seen = last.get(key);
    if (seen?.text === e.text) return seen.valid;
    const valid = check(operationId, e.status, e.body);
    last.set(key, { text: e.text, valid });
    return valid;
  };
}

export interface ReportingDeps {
  logger: Logger;
  metrics: Metrics;
  runtime: Runtime;
  workspaceOf: (key: string) => string;
  /** Whether an answer matched the spec (the journal's check). */
  check: ResponseCheck;
  /** Anything else a /v1 answer goes to (the journal). */
  also: (e: V1Exchange) => void;
}

/** Where each answer is reported once sent: the journal, the request log, the metrics. */
export function createReporting({ logger, metrics, runtime, workspaceOf, check, also }: ReportingDeps) {
  const log = createRequestLog(logger, workspaceOf, runtime);
  const matches = createMatchCheck(check);
  return {
    onResponse(e: V1Exchange): void {
      also(e);
      if (logger.logsRequests) log.v1(e);
      const operation = e.op?.operationId ?? 'unknown';
      metrics.request(operation, e.status, runtime.mode, e.durationMs / 1000);
      if (!matches(e)) metrics.mismatch(operation);
    },
    onAnswered(e: AnsweredRequest): void {
      if (logger.logsRequests) log.other(e);
      metrics.request(e.operation ?? 'unknown', e.status, runtime.mode, e.durationMs / 1000);
    },
    /** A request refused before it was read (431, 408, a malformed one): counted, and logged with what is known of it. */
    onRefused(refused: RefusedRequest): void {
      if (logger.logsRequests) log.refused(refused);
      metrics.request('unknown', refused.status, runtime.mode);
    },
  };
}
