import { ApiError } from '../../http/errors.js';
import type { Workspaces } from '../../store/workspaces.js';
import type { NewPet, PetStatus } from '../../store/types.js';
import type { ModeHandler, OperationRequest, Reply } from '../types.js';

type Handler = (request: OperationRequest) => Promise<Reply>;

/** The stateful mode: answers from the caller's workspace in the lowdb store. */
export function createStatefulMode(workspaces: Workspaces): ModeHandler {
  const handlers: Record<string, Handler> = {
    async listPets({ key, query }) {
      const store = await workspaces.forKey(key);
      const page = store.page(query.limit as number, query.status as PetStatus | undefined);
      return { status: 200, body: page.pets, json: page.json };
    },
    async createPet({ key, body }) {
      const store = await workspaces.forKey(key);
      // The next id must stay a safe integer: beyond 2^53 - 1 two creates would get the same id.
      if (store.nextId >= Number.MAX_SAFE_INTEGER) {
        throw ApiError.of('invalid_request', `No ids left: the last id, ${Number.MAX_SAFE_INTEGER - 1}, is taken. Reset the workspace or load pets with lower ids.`);
      }
      return { status: 201, body: await store.create(body as NewPet) };
    },
    async getPet({ key, path }) {
      const store = await workspaces.forKey(key);
      const pet = store.get(path.petId as number);
      if (!pet) throw ApiError.of('not_found', `No pet with id ${String(path.petId)}.`);
      return { status: 200, body: pet };
    },
  };
  return {
    operations: new Set(Object.keys(handlers)),
    handle: (request) => {
      const handler = handlers[request.op.operationId];
      if (!handler) throw ApiError.of('not_implemented', `Operation ${request.op.operationId} is not implemented.`);
      return handler(request);
    },
  };
}
