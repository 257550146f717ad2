/**
 * The conventional stateful mode: any spec served from the item store by
 * the roles `openapi/conventions.ts` infers (list, create, read, replace,
 * patch, delete), with no code per operation. Operations that fit no
 * convention go to the fallback (the example mode), else answer 501 with
 * the reason. The rules are written down in docs/modes.md.
 */
import { ApiError } from '../../kernel/errors.js';
import { echo } from '../../kernel/echo.js';
import { formatIssues } from '../../kernel/issues.js';
import type { ModeHandler, OperationRequest, Reply } from '../../kernel/operation.js';
import { uuidFromRandomValues } from '../../kernel/uuid.js';
import type { ApiModel, Collection, Inferred } from '../../openapi/conventions.js';
import type { Spec } from '../../openapi/spec.js';
import { located } from '../../openapi/schema-ref.js';
import type { Issue, SchemaCheck, Validators } from '../../openapi/validate.js';
import { MAX_ITEMS_PER_COLLECTION } from '../../store/items/quota.js';
import type { Item, ItemId, ItemSpace, ItemStore, SeededItems } from '../../store/items/types.js';
import { itemRules, makeItem, mergePatch, singular, withoutOwned, type ItemRules } from './items.js';

export interface ConventionalDeps {
  /** The API's base path (`/api/v2`): the item store's key of its items. */
  api: string;
  spec: Spec;
  model: ApiModel;
  validators: Validators;
  items: ItemStore;
  /** The items a workspace starts with, asked at most once per workspace. */
  seed: () => SeededItems;
  /** The most items a collection holds in a workspace; default MAX_ITEMS_PER_COLLECTION (tests set a small one). */
  maxItems?: number;
  /** Answers the operations that fit no convention; without it they answer 501 with the reason. */
  fallback?: ModeHandler;
  /** A new UUID (ids of `uuid` and `string` collections, `format: uuid` fields). */
  newId?: () => string;
  now?: () => Date;
}

type Json = Record<string, unknown>;

/** What one request needs: its role, its workspace's items, the checks and the item rules. */
interface Call {
  inferred: Inferred;
  collection: Collection;
  space: ItemSpace;
  request: OperationRequest;
  rules: ItemRules;
  check: (pointer: string, value: unknown) => void;
  deps: ConventionalDeps;
}

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

const refuse = (issues: readonly Issue[]) => ApiError.of('invalid_request', formatIssues(issues));

function notFound(collection: Collection, id: unknown): ApiError {
  const shown = typeof id === 'string' ? echo(id) : String(id);
  return ApiError.of('not_found', `No ${singular(collection.name)} with id ${shown}.`);
}

/** The id a request names, as its collection stores it: an integer id by its decimal text where the path parameter is declared a string. */
function idOf({ request, collection }: Call): ItemId {
  const id = request.path[collection.idParam ?? ''] as ItemId;
  if (collection.idKind !== 'integer' || typeof id !== 'string' || !/^(0|-?[1-9][0-9]*)$/.test(id)) return id;
  return Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

const objectBody = (body: unknown): Json => {
  if (!isObject(body)) throw refuse([{ in: 'body', name: '', message: 'must be a JSON object' }]);
  return body;
};

function list({ inferred, collection, space, request }: Call): Promise<Reply> | Reply {
  const answer = (items: readonly Item[]): Reply => {
    const filters = inferred.filters.filter((name) => request.query[name] !== undefined);
    const kept = filters.length === 0 ? items : items.filter((item) => filters.every((name) => item[name] === request.query[name]));
    const limit = inferred.limit && request.query[inferred.limit.name];
    return { status: inferred.status, body: typeof limit === 'number' ? kept.slice(0, limit) : [...kept] };
  };
  const items = space.list(collection);
  return items instanceof Promise ? items.then(answer) : answer(items);
}

async function read(call: Call): Promise<Reply> {
  const item = await call.space.get(call.collection, idOf(call));
  if (!item) throw notFound(call.collection, idOf(call));
  return { status: call.inferred.status, body: item };
}

async function create(call: Call): Promise<Reply> {
  const { collection, space, deps } = call;
  const body = objectBody(call.request.body);
  // An integer id is the store's to take; the next one after those listed stands in for it while the item is checked.
  const id = collection.idKind === 'integer' ? nextIntegerId(await space.list(collection), collection.idField) : newIdOf(deps)();
  const item = makeItem(body, making(call, id));
  call.check(collection.itemSchema, item);
  // The quota is the store's to check, in the same write as the create.
  return { status: call.inferred.status, body: await space.create(collection, item, deps.maxItems ?? MAX_ITEMS_PER_COLLECTION) };
}

async function replace(call: Call): Promise<Reply> {
  const body = objectBody(call.request.body);
  const id = idOf(call);
  const stored = await call.space.update(call.collection, id, (current) => {
    const item = makeItem(body, making(call, id), current);
    call.check(call.collection.itemSchema, item);
    return item;
  });
  if (!stored) throw notFound(call.collection, id);
  return { status: call.inferred.status, body: stored };
}

async function patch(call: Call): Promise<Reply> {
  // The patch met its own schema in the pipeline (every JSON media type an operation declares, application/merge-patch+json too).
  const body = objectBody(call.request.body);
  const changes = withoutOwned(body, call.rules);
  const id = idOf(call);
  const stored = await call.space.update(call.collection, id, (current) => {
    const item = { ...(mergePatch(current, changes) as Item), [call.collection.idField]: id };
    call.check(call.collection.itemSchema, item);
    return item;
  });
  if (!stored) throw notFound(call.collection, id);
  return { status: call.inferred.status, body: stored };
}

async function remove(call: Call): Promise<Reply> {
  const { collection, space, inferred, request } = call;
  const id = idOf(call);
  // A 200 (or other status) documenting a body answers the removed item; a 204 answers none.
  const withBody = request.op.responses.get(inferred.status)?.schemaPointer !== undefined;
  const current = withBody ? await space.get(collection, id) : undefined;
  if (withBody && !current) throw notFound(collection, id);
  if (!(await space.remove(collection, id))) throw notFound(collection, id);
  return { status: inferred.status, body: current };
}

const ROLES: Record<Inferred['role'], (call: Call) => Promise<Reply> | Reply> = { list, create, read, replace, patch, delete: remove };

function nextIntegerId(items: readonly Item[], idField: string): number {
  let max = 0;
  for (const item of items) if (typeof item[idField] === 'number' && (item[idField] as number) > max) max = item[idField] as number;
  return max + 1;
}

const newIdOf = (deps: ConventionalDeps) => deps.newId ?? (typeof crypto.randomUUID === 'function' ? () => crypto.randomUUID() : uuidFromRandomValues);

const making = (call: Call, id: unknown) => ({
  rules: call.rules,
  idField: call.collection.idField,
  id,
  now: call.deps.now ?? (() => new Date()),
  newId: newIdOf(call.deps),
});

/**
 * The operations whose success answer is the item schema itself (or an
 * array of it): their bodies are made of stored items, each checked
 * against that schema as it entered the store, so the report need not
 * check them again (`Reply.checked`), as it need not the Pet Store's pets.
 */
function itemAnswers({ spec, model }: ConventionalDeps): Set<string> {
  const ids = new Set<string>();
  for (const [operationId, inferred] of model.operations) {
    const pointer = spec.operations.get(operationId)?.responses.get(inferred.status)?.schemaPointer;
    const found = pointer === undefined ? undefined : located(spec.document, pointer);
    const item = located(spec.document, inferred.collection.itemSchema)?.pointer;
    const items = found?.node.type === 'array' ? located(spec.document, `${found.pointer}/items`) : found;
    if (item !== undefined && items?.pointer === item) ids.add(operationId);
  }
  return ids;
}

const checkedReply = (reply: Reply): Reply => ({ ...reply, checked: true });

/** The conventional mode over `deps.items`: every operation of the spec, by its inferred role, else the fallback or a 501. */
export function createConventionalMode(deps: ConventionalDeps): ModeHandler {
  const rules = new Map(deps.model.collections.map((c) => [c.name, itemRules(deps.spec, c.itemSchema, c.idField)]));
  const checks = new Map<string, SchemaCheck>();
  const check = (pointer: string, value: unknown) => {
    let fn = checks.get(pointer);
    if (!fn) checks.set(pointer, (fn = deps.validators.schema(pointer, 'body')));
    const issues = fn(value);
    if (issues.length > 0) throw refuse(issues);
  };
  const ofItems = itemAnswers(deps);
  const answer = (inferred: Inferred, request: OperationRequest) => (space: ItemSpace) => {
    const collection = inferred.collection;
    const call: Call = { inferred, collection, space, request, rules: rules.get(collection.name) as ItemRules, check, deps };
    const reply = ROLES[inferred.role](call);
    if (!ofItems.has(request.op.operationId)) return reply;
    return reply instanceof Promise ? reply.then(checkedReply) : checkedReply(reply);
  };
  return {
    operations: new Set(deps.spec.operations.keys()),
    handle(request) {
      const inferred = deps.model.operations.get(request.op.operationId);
      if (!inferred) {
        if (deps.fallback) return deps.fallback.handle(request);
        const reason = deps.model.unmatched.get(request.op.operationId) ?? 'no convention fits it';
        throw ApiError.of('not_implemented', `${request.op.operationId} is not served by convention: ${reason}.`);
      }
      const space = deps.items.space(deps.api, request.key, deps.seed);
      return space instanceof Promise ? space.then(answer(inferred, request)) : answer(inferred, request)(space);
    },
  };
}
