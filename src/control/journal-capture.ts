import { isUtf8 } from 'node:buffer';
import type { V1Exchange } from '../operation.js';
import type { Spec } from '../openapi/spec.js';
import type { SchemaCheck, Validators } from '../openapi/validate.js';
import { captureBytes, captureText, JOURNAL_BODY_LIMIT, type BodyText } from './journal-body.js';
import type { JournalRecord, ResponseCheck } from './journal.js';

/**
 * Whether a journaled response matched the spec: a status its operation
 * documents, with a body valid against that response's schema. A status the
 * operation does not document is never valid, whatever its body (a
 * validating proxy would flag it too). A request that matched no operation
 * has nothing documented to compare with: its answer is valid when it is an
 * Error body.
 */
export function responseChecker(spec: Spec, validators: Validators): ResponseCheck {
  const checks = new Map<string, SchemaCheck>();
  const error = validators.schema('/components/schemas/Error');
  return (operationId, status, body) => {
    const op = operationId ? spec.operations.get(operationId) : undefined;
    if (!op) return status >= 400 && error(body).length === 0;
    const documented = op.responses.get(status);
    if (!documented) return false;
    const pointer = documented.schemaPointer;
    if (!pointer) return body === undefined || body === null;
    let check = checks.get(pointer);
    if (!check) checks.set(pointer, (check = validators.schema(pointer)));
    return check(body).length === 0;
  };
}

interface LongResponse {
  text: string;
  operationId: string | null;
  status: number;
  body: BodyText;
  specValid: boolean;
}

/**
 * Turns a finished exchange into what the journal keeps: its bodies as
 * text, cut at capture. A response too long to keep whole is checked
 * against the spec now, while its value is at hand (every other one is
 * checked when the journal is read).
 *
 * The last long response is remembered: a page the store serves again is
 * the same string, so repeated reads of a large page share one cut copy
 * and one check instead of paying both per request. That one string is
 * all this keeps beyond the journal.
 */
export function createJournalCapture(check: ResponseCheck): (e: V1Exchange) => JournalRecord {
  let last: LongResponse | undefined;
  const longResponse = (operationId: string | null, status: number, text: string, value: unknown): LongResponse => {
    if (last?.status === status && last.operationId === operationId && last.text === text) return last;
    return (last = { text, operationId, status, body: captureText(text), specValid: check(operationId, status, value) });
  };
  return (e) => {
    const operationId = e.op?.operationId ?? null;
    const long = e.text !== undefined && e.text.length > JOURNAL_BODY_LIMIT ? longResponse(operationId, e.status, e.text, e.body) : undefined;
    return {
      time: Date.now(),
      method: e.req.method ?? '',
      url: e.url,
      operationId,
      status: e.status,
      durationMs: Math.round(e.durationMs * 100) / 100,
      request: e.requestBytes && captureBytes(e.requestBytes, isUtf8(e.requestBytes)),
      response: long?.body ?? (e.text === undefined ? undefined : captureText(e.text)),
      ...(long ? { specValid: long.specValid } : {}),
    };
  };
}
