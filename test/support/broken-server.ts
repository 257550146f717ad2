import express, { type Response } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Pet Store that breaks the contract in the ways contract tests must catch,
 * one way per transaction, so a test can tell which check caught what:
 *
 * | transaction    | what it does wrong                                     |
 * |----------------|--------------------------------------------------------|
 * | listPets 200   | `id` is a string (wrong type)                          |
 * | listPets 400   | nothing: a valid answer                                |
 * | listPets 401   | Error `status` 403 in a 401 response                   |
 * | createPet 201  | the created pet has no `id` (missing required field)   |
 * | createPet 400  | answers 422 (undocumented status)                      |
 * | createPet 401  | an HTML error page                                     |
 * | getPet 200     | nothing: a valid answer                                |
 * | getPet 401     | nothing: a valid answer                                |
 * | getPet 404     | answers 200 for an id that cannot exist (wrong status) |
 *
 * It has no /__sandbox control plane, like a deployment that is not a sandbox.
 */
export const BROKEN_BEHAVIOUR = {
  listPets200: 'id is a string',
  listPets401: 'Error status 403 in a 401',
  createPet201: 'no id',
  createPet400: 'answers 422',
  createPet401: 'HTML error page',
  getPet404: 'answers 200',
} as const;

const DEPRECATION = { Deprecation: '@1735689600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', Link: '</v1/pets>; rel="successor-version"' };

// Written by hand: Express's res.json/res.send would add `; charset=utf-8`.
function send(res: Response, status: number, body: unknown, headers: Record<string, string> = {}, type = 'application/json'): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text), ...headers }).end(text);
}

const authorized = (auth: string | undefined) => auth === 'Bearer sandbox-key';

export function createBrokenApp(): express.Express {
  const app = express();
  app.use(express.json());
  app.get('/v1/pets', (req, res) => {
    if (!authorized(req.headers.authorization))
      return send(res, 401, { code: 'unauthorized', message: 'No key.', status: 403 }, { 'WWW-Authenticate': 'Bearer' });
    const limit = req.query.limit;
    if (limit !== undefined && !/^([1-9]\d?|100)$/.test(String(limit))) return send(res, 400, { code: 'invalid_request', message: 'Bad limit.', status: 400 });
    send(res, 200, [{ id: '1', name: 'Rex', categoryId: 1, status: 'available' }]);
  });
  app.post('/v1/pets', (req, res) => {
    if (!authorized(req.headers.authorization))
      return send(res, 401, '<html><body><h1>401 Unauthorized</h1></body></html>', { 'WWW-Authenticate': 'Bearer' }, 'text/html');
    const body = req.body as { name?: unknown; categoryId?: unknown; status?: unknown } | undefined;
    if (typeof body?.name !== 'string') return send(res, 422, { code: 'unprocessable', message: 'name is required.', status: 422 });
    send(res, 201, { name: body.name, categoryId: body.categoryId, status: body.status });
  });
  app.get('/v1/pets/:petId', (req, res) => {
    if (!authorized(req.headers.authorization))
      return send(res, 401, { code: 'unauthorized', message: 'No key.', status: 401 }, { 'WWW-Authenticate': 'Bearer', ...DEPRECATION });
    send(res, 200, { id: Number(req.params.petId), name: 'Rex', categoryId: 1, status: 'available' }, DEPRECATION);
  });
  return app;
}

export interface BrokenServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the broken Pet Store on 127.0.0.1, port 0. */
export async function startBrokenServer(): Promise<BrokenServer> {
  const server: Server = await new Promise((resolve, reject) => {
    const s = createBrokenApp().listen(0, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
