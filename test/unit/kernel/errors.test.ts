/**
 * The error catalogue (src/kernel/errors.ts) is the one list of codes the
 * sandbox sends. These tests fail when the documentation of those codes (the
 * Errors table of docs/interface.md, the code lists in both specs' descriptions) and the
 * catalogue differ, in the way fastify's errors test holds its docs to
 * lib/errors.js.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ApiError, codeForStatus, ERROR_CODES, isErrorCode, type ErrorCode } from '../../../src/kernel/errors.js';
import { OUTAGE_STATUSES } from '../../../src/store/faults.js';
import { docTable, docText } from '../../support/docs.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const catalogue = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, entry]) => [code, entry.status]));
const allCodes = Object.keys(ERROR_CODES) as ErrorCode[];

/** The Errors table of docs/interface.md: code rows as code -> status, and the rows that name no code. */
function documentedErrors(): { codes: Record<string, number>; others: Record<string, number[]> } {
  const codes: Record<string, number> = {};
  const others: Record<string, number[]> = {};
  for (const [name = '', status = ''] of docTable('## Errors', docText('docs/interface.md'))) {
    const code = /^`([a-z_]+)`$/.exec(name)?.[1];
    if (code === undefined) others[name] = status.split(',').map((s) => Number(s.trim()));
    else {
      expect(codes, `docs/interface.md lists ${code} twice`).not.toHaveProperty(code);
      codes[code] = Number(status);
    }
  }
  return { codes, others };
}

/**
 * The codes a spec's `info.description` lists after "Error codes:" (up to the
 * first full stop), as code -> status. A status in parentheses applies to the
 * codes named since the previous one ("`a` and `b` (507)"); without any,
 * the status is left out (NaN).
 */
function specErrorCodes(file: string): Record<string, number> {
  const description = String((parse(readFileSync(join(root, 'spec', file), 'utf8')) as { info: { description: string } }).info.description);
  const sentence = /Error `?code`? values[^:]*:([^.]*)\.|Error codes:([^.]*)\./s.exec(description);
  if (!sentence) throw new Error(`${file}: info.description lists no error codes`);
  const listed: Record<string, number> = {};
  let pending: string[] = [];
  for (const [, code, status] of (sentence[1] ?? sentence[2] ?? '').matchAll(/`([a-z_]+)`|\((\d{3})/g)) {
    if (code !== undefined) {
      pending.push(code);
      listed[code] = Number.NaN;
    } else {
      for (const c of pending) listed[c] = Number(status);
      pending = [];
    }
  }
  return listed;
}

describe('the Errors table of docs/interface.md', () => {
  it('lists every code of the catalogue with its status, and no other code', () => {
    expect(documentedErrors().codes).toEqual(catalogue);
  });

  it('has one row without a code: the 5xx a fault may force, answered as internal', () => {
    const forcedAsInternal = OUTAGE_STATUSES.filter((status) => codeForStatus(status) === 'internal');
    expect(documentedErrors().others).toEqual({ 'other 5xx': forcedAsInternal });
  });
});

describe('the code lists in the specs', () => {
  it('the control plane lists every code it can send, each with the catalogue status', () => {
    // The control plane answers an unknown method or path 404 and forwards nothing (its 501 is for checkpoints on a backend without them).
    const notOnControlPlane = ['method_not_allowed', 'upstream_unavailable'];
    const expected = Object.fromEntries(Object.entries(catalogue).filter(([code]) => !notOnControlPlane.includes(code)));
    expect(specErrorCodes('sandbox-control.yaml')).toEqual(expected);
  });

  it('the interface lists every code /v1 can send, each with the catalogue status', () => {
    // forbidden (a wrong admin token) and conflict (a checkpoint name taken) are the control plane's alone.
    const expected = Object.fromEntries(Object.entries(catalogue).filter(([code]) => code !== 'forbidden' && code !== 'conflict'));
    expect(specErrorCodes('openapi.yaml')).toEqual(expected);
  });
});

describe('the catalogue', () => {
  it('gives each code one status and a one-line reason', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(Number.isInteger(entry.status) && entry.status >= 400 && entry.status < 600, code).toBe(true);
      expect(entry.when.length, code).toBeGreaterThan(10);
      expect(entry.when, code).not.toContain('\n');
    }
  });

  it('is what ApiError.of sends', () => {
    for (const code of allCodes) {
      expect(ApiError.of(code, 'why').toBody()).toEqual({ code, message: 'why', status: ERROR_CODES[code].status });
    }
  });

  it.each([
    [400, 'invalid_request'],
    [404, 'not_found'],
    [503, 'service_unavailable'],
    [507, 'insufficient_storage'],
    [502, 'internal'],
    [504, 'internal'],
    [418, 'invalid_request'],
  ])('names a forced status %i %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });

  it('knows only its own codes', () => {
    expect(allCodes.every(isErrorCode)).toBe(true);
    for (const other of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'teapot', '', 400, undefined])
      expect(isErrorCode(other), String(other)).toBe(false);
  });

  it('holds no code that nothing in src/ sends', () => {
    const sources = (readdirSync(join(root, 'src'), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && file !== join('http', 'errors.ts'))
      .map((file) => readFileSync(join(root, 'src', file), 'utf8'))
      .join('\n');
    for (const code of allCodes) expect(sources, code).toContain(`'${code}'`);
  });
});
