/**
 * Whether a spec served by convention has the Pet Store's own operations:
 * `listPets` (`GET /pets`), `createPet` (`POST /pets`) and `getPet`
 * (`GET /pets/{petId}`), each the embedded spec's operation, and nothing
 * else at those two paths. Those are then answered by the Pet Store's own
 * mode over the workspace's pets (`engine/pet-layer.ts`), its rules
 * included; the spec's other collections by convention.
 *
 * "The embedded spec's operation", strictly and simply: the operation
 * object with its path's parameters, every local `$ref` resolved, equal as
 * JSON to the embedded one's, but for the words written for people
 * (`summary`, `description`, `example`, `examples`, `tags`,
 * `externalDocs`). So its parameters, request body, Pet
 * schema, statuses, error bodies and headers are the embedded ones.
 */
import type { Spec } from './spec.js';

type Json = Record<string, unknown>;

/** The Pet Store's operations, where each is found. */
const PET_STORE_OPERATIONS = [
  { operationId: 'listPets', method: 'get', path: '/pets' },
  { operationId: 'createPet', method: 'post', path: '/pets' },
  { operationId: 'getPet', method: 'get', path: '/pets/{petId}' },
] as const;

/** The collection the Pet Store's operations serve, in the store's words. */
export const PET_STORE_COLLECTION = '/pets';

/** The operation ids answered by the Pet Store's own mode when a spec has them. */
export const PET_STORE_OPERATION_IDS: ReadonlySet<string> = new Set(PET_STORE_OPERATIONS.map((one) => one.operationId));

/** Words for people: they change no answer. */
const WORDS = new Set(['summary', 'description', 'example', 'examples', 'tags', 'externalDocs']);

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The node a local `$ref` names (`#/components/schemas/Pet`), or undefined. */
function target(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    const name = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) || Array.isArray(node) ? (node as Json)[name] : undefined;
  }
  return node;
}

/** A node with its `$ref`s resolved and its words for people left out (extensions stay: `x-sunset` changes answers); a reference already being resolved (a cycle) stays as written. */
function essence(document: Json, node: unknown, resolving: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((one) => essence(document, one, resolving));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') {
    if (resolving.includes(node.$ref) || resolving.length > 32) return { $ref: node.$ref };
    return essence(document, target(document, node.$ref), [...resolving, node.$ref]);
  }
  const out: Json = {};
  for (const [name, value] of Object.entries(node)) if (!WORDS.has(name)) out[name] = essence(document, value, resolving);
  return out;
}

/** Deep equality of two JSON values. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Json)[k], (b as Json)[k]));
}

/** An operation of a document, with its path's parameters, as compared: undefined when there is none. */
function operationOf(document: Json, method: string, path: string): unknown {
  const item = isObject(document.paths) ? (document.paths as Json)[path] : undefined;
  if (!isObject(item) || !isObject(item[method])) return undefined;
  return essence(document, { pathParameters: item.parameters ?? [], operation: item[method] });
}

/** The methods a document's path has operations for. */
function methodsAt(document: Json, path: string): string[] {
  const item = isObject(document.paths) ? (document.paths as Json)[path] : undefined;
  return isObject(item) ? Object.keys(item).filter((name) => METHODS.has(name)) : [];
}

/**
 * Whether `spec` has the Pet Store's operations, as `embedded` (the
 * embedded Pet Store's spec) has them, and no other at `/pets` and
 * `/pets/{petId}`.
 */
export function hasPetStoreOperations(spec: Spec, embedded: Spec): boolean {
  for (const { operationId, method, path } of PET_STORE_OPERATIONS) {
    const op = spec.operations.get(operationId);
    if (op?.method !== method || op.path !== path) return false;
    const mine = operationOf(spec.document, method, path);
    if (mine === undefined || !sameJson(mine, operationOf(embedded.document, method, path))) return false;
  }
  return methodsAt(spec.document, '/pets').length === 2 && methodsAt(spec.document, '/pets/{petId}').length === 1;
}
