/**
 * The Pet Store interface's types for a user of the package: aliases of the
 * schemas that openapi-typescript generates from spec/openapi.yaml into
 * `schema.d.ts` (`npm run types`; `npm run types:check` fails when the two
 * differ), so they follow the spec. Each is the body as JSON carries it:
 * an int64 is a `number`, what `response.json()` gives. The store's own
 * `Pet` (store/types.ts) may hold a `bigint`: a different thing, internal.
 */
import type { components, operations, paths } from './schema.js';

type Schemas = components['schemas'];

/** An animal's availability: the spec's `PetStatus` enum. */
export type PetStatus = Schemas['PetStatus'];
/** The body of `POST /pets`: an animal to add, its `id` assigned by the service. */
export type NewPet = Schemas['NewPet'];
/** An animal as the service returns it (`GET /pets/{petId}`, `POST /pets`' 201). */
export type Pet = Schemas['Pet'];
/** The body of `GET /pets`' 200: the spec's `Pets`. */
export type Pets = Schemas['Pets'];
/** The query of `GET /pets`: `limit`, `status`. */
export type ListPetsQuery = NonNullable<operations['listPets']['parameters']['query']>;
/** Every error answer's body, `{ code, message, status }`: the spec's `Error` (docs/interface.md lists the codes). */
export type ErrorBody = Schemas['Error'];
/** The body of a 400: the spec's `BadRequestError`. */
export type BadRequestErrorBody = Schemas['BadRequestError'];
/** The body of a 401: the spec's `UnauthorizedError`. */
export type UnauthorizedErrorBody = Schemas['UnauthorizedError'];
/** The interface's paths, as openapi-typescript writes them: for a typed client such as openapi-fetch's `createClient<PetStorePaths>()`. */
export type PetStorePaths = paths;
/** The interface's operations by `operationId`, each with its parameters, body and answers. */
export type PetStoreOperations = operations;
