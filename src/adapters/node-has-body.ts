import type { IncomingMessage } from 'node:http';

/**
 * Whether a request carries a body: a chunked one has no Content-Length, so
 * both headers count. An empty `Content-Length: 0` body is no body.
 */
export const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
