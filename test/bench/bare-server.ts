/**
 * The runtime's ceiling: a bare `node:http` handler, no framework, no
 * validation, no store, no journal. GET /v1/pets checks the bearer key and
 * answers a fixed array of 20 pets (the first page the sandbox lists from its
 * default seed of 50), serialized per response as the minimal Express app does;
 * with `BARE_PREBUILT=1` the text is made once, the strictest ceiling of all.
 * GET /v1/pets/{id} finds one of those 50 and serializes it.
 * POST /v1/pets reads the body and answers a canned 201 (nothing stored).
 * Whatever the sandbox does beyond this is its own cost.
 *
 * Prints `listening on <origin>/v1` once it accepts connections, as the sandbox does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePets } from '../../src/store/seed.js';

const SEEDED = generatePets(1, 50);
const PETS = SEEDED.slice(0, 20);
const BY_ID = '/v1/pets/';
const PREBUILT = process.env.BARE_PREBUILT === '1' ? JSON.stringify(PETS) : undefined;
const EXPECTED = 'Bearer sandbox-key';
const UNAUTHORIZED = JSON.stringify({ code: 'unauthorized', message: 'Missing or invalid API key.', status: 401 });

const server = createServer((req, res) => {
  const send = (status: number, text: string) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  if (req.headers.authorization !== EXPECTED) return send(401, UNAUTHORIZED);
  if (req.method === 'GET' && req.url === '/v1/pets') return send(200, PREBUILT ?? JSON.stringify(PETS));
  const pet = req.method === 'GET' && req.url?.startsWith(BY_ID) ? SEEDED.find((p) => String(p.id) === req.url?.slice(BY_ID.length)) : undefined;
  if (pet) return send(200, JSON.stringify(pet));
  if (req.method === 'POST' && req.url === '/v1/pets') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    // The id the sandbox gives its first create on this seed, so the answer is the same Pet.
    req.on('end', () => send(201, JSON.stringify({ id: SEEDED.length + 1, ...(JSON.parse(body) as object) })));
    return;
  }
  send(404, '{"code":"not_found","message":"Not found.","status":404}');
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${port}/v1`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
