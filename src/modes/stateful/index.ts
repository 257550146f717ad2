import { ApiError } from '../../http/errors.js';
import type { Workspaces } from '../../store/workspaces.js';
import type { NewPet, PetStatus } from '../../store/types.js';
import type { ModeHandler, OperationRequest, Reply } from '../../operation.js';

type Handler = (request: OperationRequest) => Promise<Reply>;

/** The stateful mode: answers from the caller's workspace in the lowdb store. */
export function createStatefulMode(workspaces: Workspaces): ModeHandler {
  const handlers: Record<string, Handler> = {
    listPets: ({ key, query }) =>
      workspaces.use(key, (store) => {
        const page = store.page(query.limit as number, query.status as PetStatus | undefined);
        return { status: 200, body: page.pets, json: page.json };
      }),
    createPet: ({ key, body }) => workspaces.use(key, async (store) => ({ status: 201, body: await store.create(body as NewPet) })),
    getPet: ({ key, path }) =>
      workspaces.use(key, (store) => {
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
