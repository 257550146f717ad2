import type { MaybePromise, WorkspaceReads, WorkspaceStore } from '../../store/backend.js';
import { ApiError } from '../../kernel/errors.js';
import type { ModeHandler, OperationRequest, Reply } from '../../kernel/operation.js';
import type { Page, PetText } from '../../store/pet-index.js';
import type { NewPet, PetStatus } from '../../store/types.js';

type Handler = (request: OperationRequest) => MaybePromise<Reply>;

const then = <T, R>(value: MaybePromise<T>, next: (value: T) => R): MaybePromise<R> => (value instanceof Promise ? value.then(next) : next(value));

// Every pet was checked against the spec's Pet as it entered the store (a create's body, a fixture set, a checkpoint,
// the data file at start): an answer made of them is `checked`, so the report need not check its body again.
const pageReply = (page: Page): Reply => ({ status: 200, body: page.pets, json: page.json, byteLength: page.byteLength, checked: true });

const textReply = (status: number, text: PetText): Reply => ({ status, body: text.pet, json: text.json, byteLength: text.byteLength, checked: true });

const created = (text: PetText): Reply => textReply(201, text);

function petReply(text: PetText | undefined, id: unknown): Reply {
  if (!text) throw ApiError.of('not_found', `No pet with id ${String(id)}.`);
  return textReply(200, text);
}

/** The stateful mode: answers from the caller's workspace, whatever backend keeps it. */
export function createStatefulMode(workspaces: WorkspaceStore): ModeHandler {
  /**
   * A read of a workspace: at once when it can be read at once (an open file workspace, a read PostgreSQL's
   * backend keeps), else once it is available.
   */
  const read = (key: string, work: (workspace: WorkspaceReads) => MaybePromise<Reply>): MaybePromise<Reply> => {
    const workspace = workspaces.peek(key) ?? workspaces.reader?.(key);
    return workspace ? work(workspace) : workspaces.use(key, work);
  };
  const handlers: Record<string, Handler> = {
    listPets: ({ key, query }) => read(key, (ws) => then(ws.page(query.limit as number, query.status as PetStatus | undefined), pageReply)),
    createPet: ({ key, body }) => workspaces.use(key, (ws) => ws.createText(body as NewPet).then(created)),
    getPet: ({ key, path }) => read(key, (ws) => then(ws.getText(path.petId as number), (text) => petReply(text, path.petId))),
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
