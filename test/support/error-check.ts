import { expect } from 'vitest';
import type { CallResult } from './harness.js';

/**
 * Asserts that a response is the sandbox's Error and nothing else: the given
 * HTTP status, Content-Type exactly `application/json`, a body of exactly
 * {code, message, status} with `status` equal to the HTTP status, and no
 * HTML or stack trace in it. Spec validity is checked separately by `sb.op`.
 */
export function expectError(res: CallResult, status: number, code: string): void {
  expect(res.status, `HTTP status; body ${res.text}`).toBe(status);
  expect(res.body).toMatchObject({ code, status });
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(Object.keys(res.body as object).sort()).toEqual(['code', 'message', 'status']);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.text).not.toMatch(/<html|<!DOCTYPE|<pre>|\n\s+at /i);
}

/** Asserts an Error whose message names `field` (a parameter or body field) in quotes. */
export function expectErrorNaming(res: CallResult, status: number, code: string, field: string): void {
  expectError(res, status, code);
  expect(res.body.message).toContain(`'${field}'`);
}

/** A JSON request init, for `sb.call` / `sb.op`. */
export const post = (json: unknown) => ({ method: 'POST', json });

/** A raw-body request init with the given Content-Type, for bodies JSON.stringify cannot produce. */
export const postRaw = (body: string, contentType = 'application/json') => ({ method: 'POST', body, headers: { 'content-type': contentType } });
