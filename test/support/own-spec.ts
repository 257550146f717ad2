/**
 * Calls to APIs served from specs (`--spec`), each answer checked against
 * its own spec by the independent checker (contracts/spec-check.ts).
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createSpecChecker, type SpecChecker } from '../../contracts/spec-check.js';

export const PETSTORE_11 = fileURLToPath(new URL('../specs/petstore-1.1.yaml', import.meta.url));
export const INVENTORY = fileURLToPath(new URL('../specs/inventory-v2.yaml', import.meta.url));
export const BROKEN_REF = fileURLToPath(new URL('../specs/broken-ref.yaml', import.meta.url));
export const BROKEN_YAML = fileURLToPath(new URL('../specs/broken-yaml.yaml', import.meta.url));

const checkers = new Map<string, SpecChecker>();
const checkerOf = (file: string): SpecChecker => {
  let checker = checkers.get(file);
  if (!checker) checkers.set(file, (checker = createSpecChecker(file)));
  return checker;
};

export interface Answer {
  status: number;
  headers: Headers;
  // Read field by field in the tests; the spec checker vouches for the shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface SendInit {
  method?: string;
  json?: unknown;
  /** The request's headers beyond the credential. */
  headers?: Record<string, string>;
  /** How the credential is sent: a bearer token (default), an `X-Api-Key` header, or none. */
  bearer?: string | null;
  apiKey?: string;
}

/** One API served at `base` of a sandbox, with its spec's checker. */
export interface ServedApi {
  send(path: string, init?: SendInit): Promise<Answer>;
}

/**
 * The API of `specFile` served at `origin` + `base`, through `fetcher`
 * (the global fetch over HTTP, or a library sandbox's in-process fetch):
 * every answer checked against the spec for the operation its method and
 * path address (an undocumented status must carry an Error-like body).
 */
export function servedApi(fetcher: typeof fetch, origin: string, base: string, specFile: string): ServedApi {
  const checker = checkerOf(specFile);
  return {
    async send(path, init = {}) {
      const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
      const headers = new Headers(init.headers);
      const bearer = init.bearer === undefined ? 'sandbox-key' : init.bearer;
      if (bearer !== null && init.apiKey === undefined) headers.set('authorization', `Bearer ${bearer}`);
      if (init.apiKey !== undefined) headers.set('x-api-key', init.apiKey);
      if (init.json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      const body = init.json === undefined ? undefined : JSON.stringify(init.json);
      const res = await fetcher(`${origin}${base}${path}`, { method, headers, body });
      const text = await res.text();
      const parsed: unknown = text === '' ? undefined : JSON.parse(text);
      const answer = { status: res.status, headers: res.headers, body: parsed, text };
      const op = await checker.find(method, path.split('?')[0] as string);
      const problems = await checker.problems(op, answer, { undocumented: 'error-body', unmatched: [401, 404, 405, 415] });
      expect(problems, `${method} ${base}${path} answered ${res.status} ${text}`).toEqual([]);
      return answer;
    },
  };
}
