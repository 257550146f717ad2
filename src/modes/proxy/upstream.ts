import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ApiError } from '../../kernel/errors.js';

/** Headers of one connection only (RFC 9110 7.6.1): never passed on, in either direction. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A message's headers as sent (`rawHeaders`: names in their case, in their
 * order, a repeated one as a list), less the hop-by-hop ones, those named by
 * `Connection` too, and those in `drop` (lower case), which the sender sets.
 */
export function endToEnd(rawHeaders: readonly string[], drop: readonly string[] = []): [string, string | string[]][] {
  const byName = new Map<string, [string, string[]]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const lower = name.toLowerCase();
    const entry = byName.get(lower);
    if (entry) entry[1].push(rawHeaders[i + 1] as string);
    else byName.set(lower, [name, [rawHeaders[i + 1] as string]]);
  }
  const named = (byName.get('connection')?.[1] ?? []).flatMap((v) => v.split(',')).map((s) => s.trim().toLowerCase());
  const out: [string, string | string[]][] = [];
  for (const [lower, [name, values]] of byName) {
    if (HOP_BY_HOP.has(lower) || named.includes(lower) || drop.includes(lower)) continue;
    out.push([name, values.length === 1 ? (values[0] as string) : values]);
  }
  return out;
}

/** The upstream's answer, read whole. */
export interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The headers as sent: names in their case and order. */
  rawHeaders: string[];
  body: Buffer;
}

export interface Upstream {
  /**
   * Sends a request to `base + target`; rejects with a 502 `upstream_unavailable` when no whole answer comes.
   * `left`, when given, is aborted once the client is gone: the exchange stops and its socket is freed.
   */
  send(method: string, target: string, headers: OutgoingHttpHeaders, body: Uint8Array | undefined, left?: AbortSignal): Promise<UpstreamAnswer>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** Largest upstream answer read (a body over it is a 502: the proxy holds each answer whole to check it). */
export const UPSTREAM_BODY_LIMIT = 64 * 1024 * 1024;

const unavailable = (base: string, why: string) => ApiError.of('upstream_unavailable', `The upstream ${base} did not answer: ${why}.`);

/** Every byte of an answer, at most `limit`. */
function readAnswer(res: IncomingMessage, limit: number, base: string): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        res.destroy();
        reject(unavailable(base, `its answer is larger than ${limit} bytes`));
      } else chunks.push(chunk);
    });
    res.once('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks, size) }));
    res.once('error', (error) => reject(unavailable(base, error.message)));
  });
}

/**
 * The deployment proxy mode forwards to: one kept-alive agent with a bounded
 * number of sockets, a deadline for each whole exchange, and every failure
 * (refused, reset, timed out, unresolvable) as one 502.
 */
export function createUpstream(base: string, timeoutMs: number, maxSockets = 64): Upstream {
  const url = new URL(base);
  const secure = url.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets }) : new HttpAgent({ keepAlive: true, maxSockets });
  const request = secure ? httpsRequest : httpRequest;
  return {
    send(method, target, headers, body, left) {
      return new Promise((resolve, reject) => {
        const deadline = AbortSignal.timeout(timeoutMs);
        const signal = left ? AbortSignal.any([deadline, left]) : deadline;
        const outgoing = request(`${base}${target}`, { method, headers, agent, signal }, (res) =>
          readAnswer(res, UPSTREAM_BODY_LIMIT, base).then(resolve, reject),
        );
        outgoing.once('error', (error: Error & { code?: string }) =>
          reject(
            left?.aborted ?
              ApiError.of('invalid_request', 'The client closed the connection while the upstream answered.')
            : unavailable(base, deadline.aborted ? `no answer within ${timeoutMs / 1000} s` : (error.code ?? error.message)),
          ),
        );
        outgoing.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
