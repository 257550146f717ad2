import type { ServerResponse } from 'node:http';
import { stringifyJson } from '../kernel/json.js';

/**
 * Writes a JSON response with `Content-Type: application/json` exactly as the
 * spec declares it. Express's `res.json` would append `; charset=utf-8`,
 * which contract tools such as Dredd compare literally; JSON is UTF-8 by
 * definition (RFC 8259), so the parameter carries no information.
 * `json`, when given, is `body` already serialized. Returns the text sent.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, json?: string, byteLength?: number): string {
  // Written as a string: a Buffer copy per response costs CPU and, under load, resident memory.
  const payload = json ?? stringifyJson(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', json !== undefined && byteLength !== undefined ? byteLength : Buffer.byteLength(payload));
  res.end(payload);
  return payload;
}
