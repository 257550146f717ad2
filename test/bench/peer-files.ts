/**
 * What the peers serve, as each one's own configuration files: the sandbox's
 * default seed (50 pets from seed 1), its first page of 20, pet 7 by id, and
 * for a create the Pet the sandbox would answer first (id 51). json-server
 * gets a db.json and a routes file that puts it under /v1; Mockoon an
 * environment of three routes; WireMock three mapping files.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatePets } from '../../src/store/seed.js';
import { NEW_PET } from './scenarios.js';

/** The pets the sandbox seeds by default (`--seed 1 --count 50`). */
export const SEEDED = generatePets(1, 50);
/** The first page the sandbox lists (its default limit). */
export const PAGE = SEEDED.slice(0, 20);
/** The one pet read by id in the GET by id rows. */
export const PET_ID = 7;
/** The canned answer to a create: the NewPet the bench posts, with the id the sandbox would give it first. */
export const CREATED = { id: SEEDED.length + 1, ...(JSON.parse(NEW_PET) as object) };

const pet = (id: number) => SEEDED.find((p) => p.id === id);
const write = (dir: string, file: string, value: unknown) => writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);

/** json-server's data (the 50 pets, which it stores and writes back on each create) and its routes: /v1/pets is the first 20. */
export function jsonServerFiles(dir: string): void {
  mkdirSync(dir, { recursive: true });
  write(dir, 'db.json', { pets: SEEDED });
  write(dir, 'routes.json', { '/v1/pets': `/pets?_limit=${PAGE.length}`, '/v1/*': '/$1' });
}

/** A Mockoon environment (schema of @mockoon/cli 9.9, `lastMigration` 33) with the three routes under the prefix v1. */
export function mockoonEnvironment(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const json = { key: 'Content-Type', value: 'application/json' };
  const route = (method: string, endpoint: string, statusCode: number, body: unknown) => ({
    uuid: randomUUID(),
    type: 'http',
    method,
    endpoint,
    responses: [{ uuid: randomUUID(), statusCode, body: JSON.stringify(body), headers: [json], default: true }],
  });
  const routes = [route('get', 'pets', 200, PAGE), route('get', `pets/${PET_ID}`, 200, pet(PET_ID)), route('post', 'pets', 201, CREATED)];
  const environment = {
    uuid: randomUUID(),
    lastMigration: 33,
    name: 'Pet Store',
    endpointPrefix: 'v1',
    hostname: '127.0.0.1',
    port: 3000,
    headers: [json],
    routes,
    rootChildren: routes.map((r) => ({ type: 'route', uuid: r.uuid })),
  };
  write(dir, 'environment.json', environment);
  return join(dir, 'environment.json');
}

/** WireMock's root folder: a mapping per operation (the 201 canned), each answering JSON text. */
export function wireMockFiles(dir: string): void {
  const mappings = join(dir, 'mappings');
  mkdirSync(mappings, { recursive: true });
  const mapping = (method: string, url: string, status: number, body: unknown) => ({
    request: { method, url },
    response: { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
  });
  write(mappings, 'list.json', mapping('GET', '/v1/pets', 200, PAGE));
  write(mappings, 'by-id.json', mapping('GET', `/v1/pets/${PET_ID}`, 200, pet(PET_ID)));
  write(mappings, 'create.json', mapping('POST', '/v1/pets', 201, CREATED));
}
