/**
 * The soak's calls to the sandbox: /v1 with an API key, the control plane
 * with the admin token; each timed into the current window, and each answer
 * the request could not get noted as unexpected.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { Findings } from './soak-ledger.js';
import type { Answer, SoakHttp } from './soak-http.js';
import type { WindowRecorder } from './soak-window.js';

export const ADMIN = 'Bearer sandbox-admin';

export interface SoakContext {
  http: SoakHttp;
  findings: Findings;
  window: WindowRecorder;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** One request, timed; undefined (and noted) when no answer came. */
export async function send(
  ctx: SoakContext,
  what: string,
  method: string,
  path: string,
  headers: OutgoingHttpHeaders,
  body?: string,
): Promise<Answer | undefined> {
  try {
    const answer = await ctx.http.send(method, path, headers, body);
    ctx.window.answered(answer.ms);
    return answer;
  } catch (error) {
    ctx.window.answered();
    ctx.findings.noteUnexpected(`${what}: no answer (${(error as Error).message})`);
    return undefined;
  }
}

/** A /v1 request with `Authorization: Bearer <key>` (no header when `key` is null); a body is sent as JSON unless `raw`. */
export function v1(ctx: SoakContext, key: string | null, method: string, path: string, body?: unknown, raw?: OutgoingHttpHeaders): Promise<Answer | undefined> {
  const auth = key === null ? {} : { authorization: `Bearer ${key}` };
  const text =
    body === undefined ? undefined
    : typeof body === 'string' ? body
    : JSON.stringify(body);
  const headers = { ...auth, ...(text === undefined ? {} : JSON_TYPE), ...raw };
  return send(ctx, `${method} /v1${path}`, method, `/v1${path}`, headers, text);
}

/** A control-plane request on `key`'s workspace. */
export function control(ctx: SoakContext, key: string, method: string, path: string, body?: unknown): Promise<Answer | undefined> {
  const headers = { authorization: ADMIN, 'x-sandbox-key': key, ...(body === undefined ? {} : JSON_TYPE) };
  return send(ctx, `${method} /__sandbox${path} (${key})`, method, `/__sandbox${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
}

/** Whether `answer` has one of `statuses`; notes it as unexpected when it has not. */
export function expectStatus(ctx: SoakContext, what: string, answer: Answer | undefined, ...statuses: number[]): answer is Answer {
  if (!answer) return false;
  if (statuses.includes(answer.status)) return true;
  ctx.findings.noteUnexpected(`${what} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return false;
}

/** Whether `answer` is an Error of the model (`{code, message, status}` as JSON, `status` its own) with one of `statuses`. */
export function expectError(ctx: SoakContext, what: string, answer: Answer | undefined, ...statuses: number[]): boolean {
  if (!expectStatus(ctx, what, answer, ...statuses)) return false;
  let body: { code?: unknown; message?: unknown; status?: unknown } = {};
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    // Not JSON: reported below.
  }
  const ok = answer.contentType.startsWith('application/json') && typeof body.code === 'string' && typeof body.message === 'string';
  if (ok && body.status === answer.status) return true;
  ctx.findings.noteUnexpected(`${what} answered ${answer.status} without an Error body (${answer.contentType}): ${answer.text.slice(0, 200)}`);
  return false;
}

/** The JSON of an answer, or undefined (noted) when it is not JSON. */
export function jsonOf<T>(ctx: SoakContext, what: string, answer: Answer): T | undefined {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    ctx.findings.noteUnexpected(`${what} answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`);
    return undefined;
  }
}
