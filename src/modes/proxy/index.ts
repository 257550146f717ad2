import type { OutgoingHttpHeaders } from 'node:http';
import type { Config } from '../../config/load.js';
import type { Violation } from '../../kernel/operation.js';
import type { ForwardReply, ForwardRequest, PassThroughMode } from './types.js';
import { responseIssues } from '../../openapi/response-issues.js';
import type { OperationSpec, Spec } from '../../openapi/spec.js';
import type { RequestValidator, Validators } from '../../openapi/validate.js';
import { createUpstream, endToEnd } from './upstream.js';
import { requestViolations, responseViolations } from './violations.js';

export { VIOLATIONS_HEADER, violationsHeader } from './header.js';

/** The headers proxy mode sets itself, in place of the caller's; with tracing on, `traceparent` too. */
const SET = ['host', 'content-length', 'authorization'];
const SET_TRACED = [...SET, 'traceparent'];

/** Proxy mode, with the upstream's kept-alive connections to close at shutdown. */
export interface ProxyMode extends PassThroughMode {
  close(): void;
}

/**
 * Proxy mode: each /v1 request goes to the deployment at `--upstream` as it
 * came (method, target, headers but the hop-by-hop ones, body bytes), with
 * `--upstream-key` instead of the caller's key when given; the answer comes
 * back as it was (status, headers, bytes). Both are checked against the
 * spec on the way and what they break is reported, never corrected: a
 * request the spec refuses is forwarded too, as Prism's proxy does, since
 * how the deployment answers it is what a validation run wants to see.
 */
export function createProxyMode(options: {
  spec: Spec;
  validators: Validators;
  config: Pick<Config, 'upstream' | 'upstreamKey' | 'upstreamTimeoutMs'>;
  /** The `traceparent` of the request under way's span (kernel/tracing.ts), sent in place of the caller's; absent: no tracing. */
  traceparent?: (() => string | undefined) | undefined;
}): ProxyMode {
  const { validators, config } = options;
  if (!config.upstream) throw new Error('Proxy mode needs an upstream');
  const upstream = createUpstream(config.upstream, config.upstreamTimeoutMs);
  const checkResponse = responseIssues(options.spec, validators);
  // Compiled on first use: a proxy that never sees an operation never pays for its validator.
  const compiled = new Map<string, RequestValidator>();
  const validatorOf = (op: OperationSpec) => compiled.get(op.operationId) ?? compiled.set(op.operationId, validators.request(op)).get(op.operationId);

  const outgoing = (request: ForwardRequest): OutgoingHttpHeaders => {
    const traceparent = options.traceparent?.();
    const headers: OutgoingHttpHeaders = Object.fromEntries(endToEnd(request.rawHeaders, traceparent === undefined ? SET : SET_TRACED));
    // The upstream's work is a child of this request's span, not of the caller's.
    if (traceparent !== undefined) headers.traceparent = traceparent;
    const authorization = config.upstreamKey ? `Bearer ${config.upstreamKey}` : (request.headers.authorization as string | undefined);
    if (authorization !== undefined) headers.authorization = authorization;
    if (request.body) headers['content-length'] = request.body.length;
    return headers;
  };

  return {
    check: (request) => requestViolations(request.op && validatorOf(request.op), request),
    async forward(request: ForwardRequest, asked: Violation[]): Promise<ForwardReply> {
      const answer = await upstream.send(request.method, request.url, outgoing(request), request.body, request.signal);
      const { violations, value } = responseViolations(checkResponse, request.op, answer, request.method === 'HEAD');
      const plain = answer.headers['content-encoding'] === undefined || answer.headers['content-encoding'] === 'identity';
      return {
        status: answer.status,
        // A HEAD answer's Content-Length is the GET body's: kept as sent. Any other is the bytes passed on.
        headers: endToEnd(answer.rawHeaders, request.method === 'HEAD' ? [] : ['content-length']),
        body: answer.body,
        value,
        text:
          plain ? answer.body.toString('utf8')
          : value === undefined ? undefined
          : JSON.stringify(value),
        violations: [...asked, ...violations],
      };
    },
    close: () => upstream.close(),
  };
}
