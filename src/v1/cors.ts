import type { Config } from '../config/load.js';
import type { EngineHeaders, OutHeaders } from '../kernel/types.js';

/** Headers a script in a browser may read on a /v1 answer. */
const EXPOSED = 'Deprecation,Sunset,Link,WWW-Authenticate';
const ALLOWED_HEADERS = 'Authorization,Content-Type,Prefer,Accept,X-Sandbox-Key';
const ALLOWED_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/** CORS of /v1 (`--cors-origins`): the headers of an actual request, and the answer's headers of a preflight. */
export interface Cors {
  /** Adds the headers of an actual (non-OPTIONS) request's answer to `out`. */
  actual(headers: EngineHeaders, out: OutHeaders): void;
  /** Adds a preflight's headers to `out`: every OPTIONS request is answered 204 with them. */
  preflight(headers: EngineHeaders, out: OutHeaders): void;
}

/**
 * The headers the `cors` package sets with the sandbox's options (any origin,
 * or a list reflected with `Vary: Origin`; the allowed headers, the exposed
 * headers, a max age of 600 s), written out as plain values so that any
 * transport can carry them. With any origin allowed, an actual request gets
 * two constant headers.
 */
export function createCors(config: Pick<Config, 'corsOrigins'>): Cors {
  const origins = config.corsOrigins;
  const origin =
    origins === '*' ?
      (_headers: EngineHeaders, out: OutHeaders) => void (out['Access-Control-Allow-Origin'] = '*')
    : (headers: EngineHeaders, out: OutHeaders) => {
        const asked = headers.origin;
        if (typeof asked === 'string' && origins.includes(asked)) out['Access-Control-Allow-Origin'] = asked;
        out.Vary = 'Origin';
      };
  return {
    actual(headers, out) {
      origin(headers, out);
      out['Access-Control-Expose-Headers'] = EXPOSED;
    },
    preflight(headers, out) {
      origin(headers, out);
      out['Access-Control-Allow-Methods'] = ALLOWED_METHODS;
      out['Access-Control-Allow-Headers'] = ALLOWED_HEADERS;
      out['Access-Control-Max-Age'] = '600';
      out['Access-Control-Expose-Headers'] = EXPOSED;
      out['Content-Length'] = '0';
    },
  };
}
