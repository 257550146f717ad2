/**
 * An API served from a spec by convention (`--spec`), as its /v1-style
 * pipeline takes it: state inferred from the spec (`openapi/conventions.ts`,
 * `modes/conventional/`) and kept in the store's items, seeded from the
 * item schemas; auth as the spec declares it; errors in the spec's shape;
 * the Deprecation and Sunset headers of a deprecated operation.
 */
import type { Config } from '../config/load.js';
import { createKeyMatcher } from '../kernel/auth.js';
import { ApiError } from '../kernel/errors.js';
import type { Access, ErrorShape } from '../kernel/operation.js';
import { createConventionalMode } from '../modes/conventional/index.js';
import { createStatefulMode } from '../modes/stateful/index.js';
import { hasPetStoreOperations, PET_STORE_COLLECTION } from '../openapi/petstore-operations.js';
import { inferApi, type ApiModel } from '../openapi/conventions.js';
import { deprecationHeadersOf } from '../openapi/deprecation.js';
import { createErrorShaper } from '../openapi/error-shape.js';
import { createCredentialReader, createDocumentCredentialReader, describeSecurity } from '../openapi/security.js';
import type { OperationSpec, Spec } from '../openapi/spec.js';
import type { SchemaCheck } from '../openapi/validate.js';
import type { ServedItemsApi } from '../control/api-items.js';
import type { Backend } from '../store/backend.js';
import { MAX_ITEMS_PER_COLLECTION } from '../store/items/quota.js';
import type { ItemId, SeededItems } from '../store/items/types.js';
import { seedCollections } from '../store/schema-seed.js';
import type { V1PipelineDeps } from '../v1/pipeline.js';
import type { ApiParts } from './engine-types.js';
import { petLayer, petReferencing, seededPetIds } from './pet-layer.js';

/** The noun `petId` properties name the workspace's pets by. */
const PET_NOUN = 'pet';

/** The workspace of a request to an open operation that sends no key: one for every such caller, per API. */
export const ANONYMOUS_KEY = 'anonymous';

/** Auth as the spec declares it: each operation's schemes, the sandbox's keys (or any, with open keys) accepted in them. */
function specAccess(spec: Spec, config: Pick<Config, 'apiKeys' | 'openKeys'>): Access {
  const accepts = config.openKeys ? () => true : createKeyMatcher(config.apiKeys);
  const readers = createCredentialReader(spec);
  // A request no operation takes is judged by the document's own security (none: open), as an operation without its own would be.
  const miss = createDocumentCredentialReader(spec);
  const judge = (headers: Parameters<Access['accepted']>[0], op: OperationSpec | undefined, query: Record<string, unknown>) => {
    const found = ((op && readers.get(op.operationId)) || miss)(headers, query);
    const key = found.key !== undefined && accepts(found.key) ? found.key : undefined;
    return { key: key ?? (found.open ? ANONYMOUS_KEY : undefined), found };
  };
  return {
    accepted: (headers, op, query = {}) => judge(headers, op, query).key,
    authenticate(headers, op, query) {
      const { key, found } = judge(headers, op, query);
      if (key !== undefined) return key;
      const how = describeSecurity(spec, op);
      const challenge = found.open ? undefined : found.challenge;
      // The Pet Store's wording: a key the sandbox does not accept, an Authorization header it cannot read, or nothing sent.
      const message =
        found.key !== undefined ? 'Invalid API key.'
        : challenge !== undefined && headers.authorization ? `Malformed Authorization header: ${how}.`
        : `Missing API key: ${how}.`;
      throw ApiError.of('unauthorized', message, challenge ? { 'WWW-Authenticate': challenge } : {});
    },
  };
}

/** What an API served by convention keeps and how it is seeded: what its mode and the control plane's export and load share. */
export interface ServedParts {
  model: ApiModel;
  /** Whether the spec has the Pet Store's own operations: those are then the Pet Store's mode's, over the workspace's pets. */
  layered: boolean;
  /** Its collections (the Pet Store's `/pets` left to the pets when layered) and their seeded items. */
  served: ServedItemsApi;
  /** The seeded items, `<noun>Id` properties naming ids of `references` where given (the workspace's pets). */
  seedWith(references?: ReadonlyMap<string, readonly ItemId[]>): SeededItems;
}

/**
 * What an API served by convention keeps in the item store: its collections, each with its item schema's check,
 * and their seeded items. With the Pet Store's own operations (compared with `embedded`, the embedded spec), its
 * `/pets` is the workspace's pets, not a collection of items.
 */
export function servedPartsOf(api: ApiParts, config: Config, embedded?: Spec): ServedParts {
  const { spec, validators } = api;
  const model = inferApi(spec);
  const layered = embedded !== undefined && hasPetStoreOperations(spec, embedded);
  const collections = model.collections
    .filter(({ name }) => !(layered && name === PET_STORE_COLLECTION))
    .map(({ name, idField, idKind, itemSchema }) => ({ name, idField, idKind, schemaPointer: itemSchema }));
  // A collection holds at most MAX_ITEMS_PER_COLLECTION items: `--count` beyond it seeds that many.
  const count = Math.min(config.count, MAX_ITEMS_PER_COLLECTION);
  const checks = new Map(collections.map(({ name, schemaPointer }) => [name, validators.schema(schemaPointer, 'body')]));
  // Every seeded item is checked as a created one is: one its schema refuses (a pattern no example met) is not stored.
  const seedWith = (references?: ReadonlyMap<string, readonly ItemId[]>) => {
    const seeded = seedCollections(spec.document, collections, { seed: config.seed, count, ...(references ? { references } : {}) });
    for (const { name } of collections) {
      const valid = checks.get(name) as SchemaCheck;
      seeded.set(
        name,
        (seeded.get(name) ?? []).filter((item) => valid(item).length === 0),
      );
    }
    return seeded;
  };
  const served = {
    base: api.base,
    collections: collections.map(({ name, idField, idKind }) => ({ name, idField, idKind, check: checks.get(name) as SchemaCheck })),
    seed: () => seedWith(),
  };
  return { model, layered, served, seedWith };
}

/**
 * The pipeline's parts of an API served by convention: its modes (stateful
 * by convention), access, errors, and headers. With the Pet Store's own
 * operations, those are the Pet Store's mode's over the workspace's pets
 * (`engine/pet-layer.ts`), and an order's seeded `petId` names one of them.
 */
export function conventionalApi(
  api: ApiParts,
  backend: Backend,
  config: Config,
  { model, layered, seedWith }: ServedParts = servedPartsOf(api, config),
): Pick<V1PipelineDeps, 'modes' | 'access' | 'shapeError' | 'headersOf'> {
  const { spec, validators } = api;
  const items =
    layered ? petReferencing(backend.items, backend.workspaces, (ids) => seedWith(new Map([[PET_NOUN, ids]])), seededPetIds(config.count)) : backend.items;
  const conventional = createConventionalMode({
    api: api.base,
    spec,
    model,
    validators,
    items,
    seed: () => seedWith(),
    ...(api.modes.example ? { fallback: api.modes.example } : {}),
  });
  const stateful = layered ? petLayer(createStatefulMode(backend.workspaces), conventional) : conventional;
  const shaper = createErrorShaper(spec, validators);
  const shapeError: ErrorShape = (op, error) => shaper(op?.operationId, error.status, error);
  return {
    modes: { ...api.modes, stateful },
    access: specAccess(spec, config),
    shapeError,
    headersOf: (op) => deprecationHeadersOf(spec.document, op),
  };
}
