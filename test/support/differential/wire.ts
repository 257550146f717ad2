/**
 * The cross-adapter differential's values: a request as data (so the same
 * list can be handed to a page in Chromium as JSON), an answer as a way in
 * received it, and the part of an answer the ways in must agree on byte for
 * byte: status, the documented response headers, the body.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ROOT } from '../spawn.js';
import { expandBulk, type Bulk, type Slow } from './bodies.js';

/** One request of the corpus: a target as fetch would send it, headers, body bytes in base64. */
export interface WireRequest {
  /** What the case provokes, shown when two ways disagree. */
  name: string;
  method: string;
  /** Path and query, already as a WHATWG URL normalises them (dot segments, escapes), as every fetch client sends them. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** A body too large to carry as base64 (tens of megabytes): each way makes its bytes from this recipe (bodies.ts). */
  bulk?: Bulk;
  /** Sent as a slow client sends it: in pieces with pauses, with no declared length (bodies.ts). */
  slow?: Slow;
}

/** An answer as a way in received it, before anything is left out. */
export interface RawAnswer {
  status: number;
  headers: [string, string][];
  /** The body's bytes in base64. */
  body: string;
}

/** What every way in must agree on. */
export interface Answer {
  status: number;
  headers: string[];
  /**
   * The body as text when its bytes are UTF-8 (decoding is then one to one),
   * else `base64:` and its bytes; past LARGE bytes, their SHA-256, size and
   * first characters (a 60 MB export: every byte counts, none is kept).
   */
  body: string;
}

/** Bodies larger than this are compared by digest. */
const LARGE = 1024 * 1024;

/**
 * The response headers the interface documents (every header under
 * `components.headers` of spec/openapi.yaml: WWW-Authenticate, Deprecation,
 * Sunset, Link), plus Content-Type, Allow, which docs/interface.md
 * documents on the 405, and Sandbox-Violations, which docs/modes.md
 * documents on proxy mode's answers. Compared on every answer, a superset
 * of each answer's own: a documented header sent where it is not documented
 * would be a difference too. The rest legitimately differs: a random
 * X-Request-Id, the socket's Date and Connection, and CORS headers, which
 * follow the Origin a browser sets itself.
 */
export const DOCUMENTED_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'allow',
  'sandbox-violations',
  ...Object.keys((parse(readFileSync(`${ROOT}spec/openapi.yaml`, 'utf8')) as { components: { headers: object } }).components.headers).map((name) =>
    name.toLowerCase(),
  ),
]);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as the comparison shows it: text for UTF-8 bytes, base64 otherwise, a digest when large. */
export function bodyText(bytes: Uint8Array): string {
  if (bytes.length > LARGE) {
    const start = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
    return `sha256:${createHash('sha256').update(bytes).digest('hex')}, ${bytes.length} bytes, starting ${JSON.stringify(start)}`;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return `base64:${Buffer.from(bytes).toString('base64')}`;
  }
}

/** The part of a raw answer the ways in must agree on. */
export function comparable(raw: RawAnswer): Answer {
  return {
    status: raw.status,
    headers: raw.headers
      .map(([name, value]) => [name.toLowerCase(), value] as const)
      .filter(([name]) => DOCUMENTED_HEADERS.has(name))
      .map(([name, value]) => `${name}: ${value}`)
      .sort(),
    body: bodyText(Buffer.from(raw.body, 'base64')),
  };
}

/** A Fetch API Response as a raw answer. */
export async function rawOf(response: Response): Promise<RawAnswer> {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

/** The request's body bytes, if any: carried in base64, or made from its recipe. */
export function bodyBytes(request: WireRequest): Uint8Array | undefined {
  if (request.bulk) return new TextEncoder().encode(expandBulk(request.bulk));
  return request.body === undefined ? undefined : new Uint8Array(Buffer.from(request.body, 'base64'));
}
