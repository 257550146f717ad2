/**
 * The ceiling for any Express-based server on this machine: Express 5 with
 * one handler that checks the bearer key and returns a fixed array of 20
 * pets (the same 20 the sandbox lists from its default seed). No CORS, no
 * validation, no store. ETag is off as in the sandbox, so the comparison
 * is not flattered by work the sandbox skips.
 *
 * Prints the sandbox's start-up line, `listening on <origin>/v1`, once it
 * accepts connections, so one reader finds either.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { generatePets } from '../../src/store/seed.js';

const PETS = generatePets(1, 20);
const EXPECTED = 'Bearer sandbox-key';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/v1/pets', (req, res) => {
  if (req.headers.authorization !== EXPECTED) {
    res.status(401).json({ code: 'unauthorized', message: 'Missing or invalid API key.', status: 401 });
    return;
  }
  res.json(PETS);
});

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${port}/v1`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
