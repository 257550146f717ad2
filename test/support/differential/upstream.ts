/**
 * A small Pet Store deployment for proxy mode's cases: a node:http server
 * on 127.0.0.1 with canned answers, as a real deployment gives them (two
 * pets, a read by id with the deprecated operation's headers, a 404, a
 * create, a 400 for a request the interface refuses, a 401 without the
 * key), and one answer that breaks the interface (pet 3's id as a string),
 * for the sandbox to report. Stateless, so that every way's sandbox meets the
 * same deployment. The test that starts it stops it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEY } from '../harness.js';

export interface Upstream {
  /** Its base, ending in /v1, as `--upstream` takes it. */
  readonly url: string;
  close(): Promise<void>;
}

const PETS = [
  { id: 1, name: 'Staging Rex', categoryId: 7, status: 'available' },
  { id: 2, name: 'Staging Luna', categoryId: 8, status: 'sold' },
];
const DEPRECATED = { Deprecation: '@1735689600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', Link: '</v1/pets>; rel="successor-version"' };

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), ...headers }).end(text);
}

const error = (res: ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>) =>
  send(res, status, { code, message, status }, headers);

/** A create's body as the deployment judges it: a name and a categoryId, an optional status, nothing else. */
function created(text: string): object | undefined {
  try {
    const pet = JSON.parse(text) as Record<string, unknown>;
    const known = Object.keys(pet).every((name) => ['name', 'categoryId', 'status'].includes(name));
    return known && typeof pet.name === 'string' && Number.isInteger(pet.categoryId) ? { id: 3, ...pet } : undefined;
  } catch {
    return undefined;
  }
}

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://upstream.test');
  if (req.headers.authorization !== `Bearer ${KEY}`)
    return error(res, 401, 'unauthorized', 'Missing or invalid API key: send Authorization: Bearer <API_KEY>.', { 'WWW-Authenticate': 'Bearer' });
  if (req.method === 'GET' && url.pathname === '/v1/pets') {
    const limit = url.searchParams.get('limit') ?? '20';
    if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100)
      return error(res, 400, 'invalid_request', "Query parameter 'limit' must be an integer from 1 to 100.");
    return send(res, 200, PETS.slice(0, Number(limit)));
  }
  const id = /^\/v1\/pets\/(\d+)$/.exec(url.pathname)?.[1];
  if (req.method === 'GET' && id === '3') return send(res, 200, { id: '3', name: 'Rex', categoryId: 1 }, DEPRECATED);
  if (req.method === 'GET' && id !== undefined) {
    const pet = PETS.find((p) => String(p.id) === id);
    return pet ? send(res, 200, pet, DEPRECATED) : error(res, 404, 'not_found', `There is no pet ${id} here.`, DEPRECATED);
  }
  if (req.method === 'POST' && url.pathname === '/v1/pets') {
    const pet = created(body);
    return pet ? send(res, 201, pet, { Location: '/v1/pets/3' }) : error(res, 400, 'invalid_request', 'Request body is not a valid new pet.');
  }
  error(res, 404, 'not_found', `No route ${req.method ?? ''} ${url.pathname}.`);
}

/** Starts the deployment on 127.0.0.1, any free port. */
export async function startUpstream(): Promise<Upstream> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
