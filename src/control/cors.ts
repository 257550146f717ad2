import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * CORS for the origins `--control-cors-origins` names, and for no other: a
 * page from anywhere else gets no Access-Control-* header at all, not even on
 * a preflight, so a browser never lets it drive a developer's sandbox.
 */
export function controlCors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  const handler = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'PUT', 'POST', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Sandbox-Key', 'X-Sandbox-Target-Key'],
    maxAge: 600,
  });
  return (req, res, next) => {
    if (allowed.size === 0) return next();
    // A listed origin is answered by name; Vary keeps a cache from serving it to another.
    res.vary('Origin');
    handler(req, res, next);
  };
}
