import { ApiError } from '../../http/errors.js';
import type { PetStore } from '../../store/pet-store.js';
import type { Workspaces } from '../../store/workspaces.js';
import type { NewPet, PetStatus } from '../../store/types.js';
import type { ModeHandler, OperationRequest, Reply } from '../../operation.js';

type Handler = (request: OperationRequest) => Reply | Promise<Reply>;

/** The stateful mode: answers from the caller's workspace in the lowdb store. */
export function createStatefulMode(workspaces: Workspaces): ModeHandler {
  /** A read of a workspace: at once when it is open (the usual case), else once it has opened. */
  const read = (key: string, work: (store: PetStore) => Reply): Reply | Promise<Reply> => {
    const store = workspaces.peek(key);
    return store ? work(store) : workspaces.use(key, work);
  };
  const handlers: Record<string, Handler> = {
    listPets: ({ key, query }) =>
      read(key, (store) => {
        const page = store.page(query.limit as number, query.status as PetStatus | undefined);
        return { status: 200, body: page.pets, json: page.json, byteLength: page.byteLength };
      }),
    createPet: ({ key, body }) => workspaces.use(key, async (store) => ({ status: 201, body: await store.create(body as NewPet) })),
    getPet: ({ key, path }) =>
      read(key, (store) => {
        const pet = store.get(path.petId as number);
        if (!pet) throw ApiError.of('not_found', `No pet with id ${String(path.petId)}.`);
        return { status: 200, body: pet };
      }),
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
