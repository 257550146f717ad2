import type { EngineHeaders } from '../kernel/types.js';

/** What CORS adds to a control answer, and the answer to a preflight when it is one. */
export interface CorsOutcome {
  headers: Record<string, string>;
  /** Set for an OPTIONS request from a listed origin: it is answered 204 with these headers and nothing else runs. */
  preflight: boolean;
}

const NONE: CorsOutcome = Object.freeze({ headers: Object.freeze({}), preflight: false });
const PREFLIGHT = {
  'Access-Control-Allow-Methods': 'GET,PUT,POST,DELETE',
  'Access-Control-Allow-Headers': 'Authorization,Content-Type,X-Sandbox-Key,X-Sandbox-Target-Key',
  'Access-Control-Max-Age': '600',
};

/**
 * CORS for the origins `--control-cors-origins` names, and for no other: a
 * page from anywhere else gets no Access-Control-* header at all, not even on
 * a preflight, so a browser never lets it drive a developer's sandbox. The
 * headers are those the `cors` package gives /v1 for a listed origin.
 */
export function createControlCors(origins: readonly string[]): (method: string, headers: EngineHeaders) => CorsOutcome {
  const allowed = new Set(origins);
  return (method, headers) => {
    if (allowed.size === 0) return NONE;
    const { origin } = headers;
    // A listed origin is answered by name; Vary keeps a cache from serving it to another.
    if (typeof origin !== 'string' || !allowed.has(origin)) return { headers: { Vary: 'Origin' }, preflight: false };
    const named = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    return method === 'OPTIONS' ? { headers: { ...named, ...PREFLIGHT }, preflight: true } : { headers: named, preflight: false };
  };
}
