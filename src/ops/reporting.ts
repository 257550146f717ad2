import type { AnswerChecks } from '../config/ops.js';
import type { ResponseCheck } from '../store/journal/types.js';
import type { Logger } from '../kernel/logger.js';
import type { AnsweredRequest, Runtime, V1Exchange } from '../kernel/operation.js';
import type { RefusedRequest } from './request-log.js';
import type { Issue } from '../openapi/validate.js';
import { FAULT_MESSAGE } from '../store/faults.js';
import type { Metrics, MismatchReason } from './metrics.js';
import type { WriteListener } from '../store/write-times.js';
import { createRequestLog } from './request-log.js';
import type { Tracing } from '../kernel/tracing.js';
import { spanEnds } from './span-ends.js';

/** Why an exchange with these issues broke the spec, or undefined when it did not. */
function reasonOf(e: V1Exchange, issues: readonly Issue[]): MismatchReason | undefined {
  const first = issues[0];
  if (!first) return undefined;
  if (first.in === 'operation') return 'no_operation';
  const message = typeof e.body === 'object' && e.body !== null ? (e.body as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message.startsWith(FAULT_MESSAGE)) return 'fault';
  return first.in === 'status' ? 'status' : 'body';
}

/**
 * Why a /v1 exchange broke the spec, if it did. Every answer's status is
 * checked; its body as `checks` says (`--check-answers`): not again when it
 * was built from values already checked, unless `checks.checked`; one in
 * `checks.every` (none when 0). The last answer of each operation and
 * status is remembered: a page served again is the same string, checked once.
 */
function createMatchCheck(check: ResponseCheck, checks: AnswerChecks): (e: V1Exchange) => MismatchReason | undefined {
  const last = new Map<string, { text: string; reason: MismatchReason | undefined }>();
  let count = 0;
  /** Whether this answer's body goes unchecked: sampled out, or built from checked values. */
  const skipBody = (e: V1Exchange): boolean => {
    if (checks.every !== 1 && (checks.every === 0 || ++count % checks.every !== 0)) return true;
    return e.checked === true && !checks.checked;
  };
  return (e) => {
    const operationId = e.op?.operationId ?? null;
    if (skipBody(e)) return reasonOf(e, check(operationId, e.status, e.body, true));
    if (e.text === undefined) return reasonOf(e, check(operationId, e.status, e.body));
    const key = `${operationId} ${e.status}`;
    const seen = last.get(key);
    if (seen?.text === e.text) return seen.reason;
    const reason = reasonOf(e, check(operationId, e.status, e.body));
    last.set(key, { text: e.text, reason });
    return reason;
  };
}

export interface ReportingDeps {
  logger: Logger;
  metrics: Metrics;
  runtime: Runtime;
  workspaceOf: (key: string) => string;
  /** What an exchange broke of the spec (the journal's check). */
  check: ResponseCheck;
  /** Anything else a /v1 answer goes to (the journal). */
  also: (e: V1Exchange) => void;
  /** Which answers' bodies are checked for the metrics (`--check-answers`); default: all but those built from checked values. */
  checks?: AnswerChecks;
  /** Where each request's span ends, when tracing is on. */
  tracing?: Tracing | undefined;
}

const ALL: AnswerChecks = { every: 1, checked: false };

/** Where each answer is reported once sent: the journal, the request log, the metrics. */
export function createReporting({ logger, metrics, runtime, workspaceOf, check, also, checks = ALL, tracing }: ReportingDeps) {
  const log = createRequestLog(logger, workspaceOf, runtime);
  const matches = createMatchCheck(check, checks);
  const reporting = {
    onResponse(e: V1Exchange): void {
      also(e);
      if (logger.logsRequests) log.v1(e);
      const operation = e.op?.operationId ?? 'unknown';
      metrics.request(operation, e.status, runtime.mode, e.durationMs / 1000);
      const reason = matches(e);
      if (reason) metrics.mismatch(operation, reason);
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
  if (!tracing) return reporting;
  // Tracing on: each request's span ends where it is reported; off, the reporting is as it was, with no test of it.
  const { onResponse, onAnswered } = reporting;
  const ends = spanEnds(tracing, runtime, workspaceOf);
  return {
    ...reporting,
    onResponse(e: V1Exchange): void {
      ends.v1(e);
      onResponse(e);
    },
    onAnswered(e: AnsweredRequest): void {
      ends.other(e);
      onAnswered(e);
    },
  };
}

/** The catalogue code of a failed write (a StoreFailure's), or `error` for anything else. */
const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : 'error';
};

/** What the metrics hear of the store's writes (`WorkspaceStore.listen`): each one's time, and a failure's code. */
export const storeWriteListener =
  (metrics: Pick<Metrics, 'storeWrite'>): WriteListener =>
  (kind, seconds, failed, error) =>
    metrics.storeWrite(kind, seconds, failed ? codeOf(error) : undefined);
