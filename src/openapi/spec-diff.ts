/**
 * The changes between two versions of an OpenAPI 3 document, each marked
 * breaking when a consumer written against the old one can fail against the
 * new one: operations, parameters, request bodies, responses and security,
 * compared per operation (docs/spec-diff.md says what breaks, and why).
 */
import { pointAt, schemaChanges, type Direction, type SchemaChange } from './schema-diff.js';

type Json = Record<string, unknown>;

/** What a change is, for a program reading the report (docs/spec-diff.md lists them). */
export type SpecChangeKind =
  | SchemaChange['kind']
  | `operation-${'removed' | 'added' | 'deprecated'}`
  | `parameter-${'removed' | 'required' | 'added'}`
  | `body-${'added' | 'removed' | 'required'}`
  | `status-${'removed' | 'added'}`
  | `security-${'added' | 'relaxed'}`;

/** One change of one operation: `where` in it (a parameter, the request body, a response), `what` changed. */
export interface SpecChange {
  breaking: boolean;
  kind: SpecChangeKind;
  /** `GET /pets/{petId}`, as the new document writes its path (the old one's when removed). */
  operation: string;
  operationId?: string;
  where: string;
  what: string;
}

/** Every change, the breaking ones first, with their counts. */
export interface SpecDiff {
  breaking: number;
  compatible: number;
  changes: SpecChange[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  name: string;
  operationId?: string;
  raw: Json;
  /** The parameters by `in` and name (a path's by position: renaming one changes no request). */
  parameters: Map<string, Json>;
}

/** A node with its local `$ref`s followed. */
function deref(document: Json, node: unknown): Json {
  let current = node as Json | undefined;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops++) current = pointAt(document, current.$ref) as Json | undefined;
  return current ?? {};
}

/** A document's operations, keyed by method and path with its parameters' names left out. */
function operationsOf(document: Json): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, rawItem] of Object.entries((document.paths ?? {}) as Json)) {
    const item = deref(document, rawItem);
    const places = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const method of METHODS) {
      const raw = item[method] as Json | undefined;
      if (!raw || typeof raw !== 'object') continue;
      const parameters = new Map<string, Json>();
      for (const p of [...((item.parameters ?? []) as unknown[]), ...((raw.parameters ?? []) as unknown[])].map((n) => deref(document, n))) {
        const name = String(p.name);
        parameters.set(p.in === 'path' ? `path #${places.indexOf(name)}` : `${String(p.in)} ${p.in === 'header' ? name.toLowerCase() : name}`, p);
      }
      const key = `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;
      const operationId = typeof raw.operationId === 'string' ? raw.operationId : undefined;
      operations.set(key, { name: `${method.toUpperCase()} ${path}`, ...(operationId ? { operationId } : {}), raw, parameters });
    }
  }
  return operations;
}

/** The JSON schema of a body's content: `application/json`'s, else the first media type's with a schema. */
function bodySchema(content: unknown): unknown {
  const media = (content ?? {}) as Record<string, Json>;
  return media['application/json']?.schema ?? Object.values(media).find((m) => m?.schema !== undefined)?.schema;
}

type Found = Omit<SpecChange, 'operation' | 'operationId'>;
type Docs = { before: Json; after: Json };

/** A schema's changes, placed. */
const schemaAt = (docs: Docs, before: unknown, after: unknown, direction: Direction, place: string): Found[] =>
  schemaChanges(docs, before, after, direction).map(({ field, ...change }) => ({ ...change, where: field === '' ? place : `${place}: ${field}` }));

function parameterChanges(docs: Docs, before: Operation, after: Operation): Found[] {
  const found: Found[] = [];
  const placeOf = (p: Json) => `${String(p.in)} parameter \`${String(p.name)}\``;
  for (const [key, old] of before.parameters) {
    const now = after.parameters.get(key);
    if (now === undefined) {
      found.push({ breaking: true, kind: 'parameter-removed', where: placeOf(old), what: 'removed: a client that sends it is no longer understood' });
      continue;
    }
    if (old.required !== true && now.required === true) found.push({ breaking: true, kind: 'parameter-required', where: placeOf(now), what: 'now required' });
    found.push(...schemaAt(docs, old.schema, now.schema, 'request', placeOf(now)));
  }
  for (const [key, now] of after.parameters) {
    if (before.parameters.has(key)) continue;
    const required = now.required === true;
    found.push({
      breaking: required,
      kind: required ? 'parameter-required' : 'parameter-added',
      where: placeOf(now),
      what: `${required ? 'required' : 'optional'} parameter added`,
    });
  }
  return found;
}

function requestBodyChanges(docs: Docs, before: Operation, after: Operation): Found[] {
  const old = before.raw.requestBody === undefined ? undefined : deref(docs.before, before.raw.requestBody);
  const now = after.raw.requestBody === undefined ? undefined : deref(docs.after, after.raw.requestBody);
  const where = 'request body';
  if (old === undefined && now === undefined) return [];
  if (old === undefined)
    return [{ breaking: now?.required === true, kind: 'body-added', where, what: `${now?.required === true ? 'required' : 'optional'} body added` }];
  if (now === undefined) return [{ breaking: true, kind: 'body-removed', where, what: 'removed: a client that sends one is no longer understood' }];
  const found: Found[] = [];
  if (old.required !== true && now.required === true) found.push({ breaking: true, kind: 'body-required', where, what: 'now required' });
  const [oldSchema, newSchema] = [bodySchema(old.content), bodySchema(now.content)];
  if (oldSchema !== undefined && newSchema !== undefined) found.push(...schemaAt(docs, oldSchema, newSchema, 'request', where));
  return found;
}

function responseChanges(docs: Docs, before: Operation, after: Operation): Found[] {
  const found: Found[] = [];
  const oldResponses = (before.raw.responses ?? {}) as Json;
  const newResponses = (after.raw.responses ?? {}) as Json;
  for (const [status, raw] of Object.entries(oldResponses)) {
    const where = `response ${status}`;
    if (!(status in newResponses)) {
      const success = status.startsWith('2');
      const what = success ? 'success status removed: a client expecting it gets another' : 'status no longer documented';
      found.push({ breaking: success, kind: 'status-removed', where, what });
      continue;
    }
    const oldSchema = bodySchema(deref(docs.before, raw).content);
    const newSchema = bodySchema(deref(docs.after, newResponses[status]).content);
    if (oldSchema !== undefined && newSchema === undefined) found.push({ breaking: true, kind: 'body-removed', where, what: 'body removed' });
    else if (oldSchema !== undefined) found.push(...schemaAt(docs, oldSchema, newSchema, 'response', where));
  }
  for (const status of Object.keys(newResponses))
    if (!(status in oldResponses)) found.push({ breaking: false, kind: 'status-added', where: `response ${status}`, what: 'status added' });
  return found;
}

/** An operation's security: its alternatives, each the schemes a request must satisfy together (an empty one: open). */
function securityOf(document: Json, raw: Json): { names: string[]; signatures: string[] }[] {
  const required = (raw.security ?? document.security ?? []) as Json[];
  const schemes = ((document.components as Json | undefined)?.securitySchemes ?? {}) as Json;
  const alternatives = required.map((alternative) => {
    const names = Object.keys(alternative).sort();
    // A scheme is what a request sends: its type, place and name, not its description.
    const signature = (name: string) => {
      const { description: _description, ...scheme } = deref(document, schemes[name]);
      return `${name} ${JSON.stringify(scheme)} ${JSON.stringify(alternative[name])}`;
    };
    return { names, signatures: names.map(signature) };
  });
  return alternatives.length === 0 ? [{ names: [], signatures: [] }] : alternatives;
}

function securityChanges(docs: Docs, before: Operation, after: Operation): Found[] {
  const old = securityOf(docs.before, before.raw);
  const now = securityOf(docs.after, after.raw);
  const text = (alternatives: typeof old) =>
    alternatives.map((a) => (a.names.length === 0 ? 'nothing' : a.names.map((n) => `\`${n}\``).join(' and '))).join(' or ');
  if (JSON.stringify(old) === JSON.stringify(now)) return [];
  // A client that satisfied one old alternative must satisfy a new one: one asking no more than the old did.
  const covered = (a: (typeof old)[number]) => now.some((b) => b.signatures.every((s) => a.signatures.includes(s)));
  const breaking = !old.every(covered);
  return [{ breaking, kind: breaking ? 'security-added' : 'security-relaxed', where: 'security', what: `requires ${text(now)} (was ${text(old)})` }];
}

/** Every change from `before` to `after` (two OpenAPI 3 documents, read and checked), the breaking ones first. */
export function diffSpecs(before: Json, after: Json): SpecDiff {
  const docs = { before, after };
  const oldOps = operationsOf(before);
  const newOps = operationsOf(after);
  const changes: SpecChange[] = [];
  const of = (op: Operation) => ({ operation: op.name, ...(op.operationId ? { operationId: op.operationId } : {}) });
  for (const [key, old] of oldOps) {
    const now = newOps.get(key);
    if (now === undefined) {
      changes.push({ breaking: true, kind: 'operation-removed', ...of(old), where: 'operation', what: 'removed' });
      continue;
    }
    const found: Found[] = [
      ...(old.raw.deprecated !== true && now.raw.deprecated === true ?
        [{ breaking: false, kind: 'operation-deprecated' as const, where: 'operation', what: 'deprecated' }]
      : []),
      ...securityChanges(docs, old, now),
      ...parameterChanges(docs, old, now),
      ...requestBodyChanges(docs, old, now),
      ...responseChanges(docs, old, now),
    ];
    changes.push(...found.map((change) => ({ ...of(now), ...change })));
  }
  for (const [key, now] of newOps)
    if (!oldOps.has(key)) changes.push({ breaking: false, kind: 'operation-added', ...of(now), where: 'operation', what: 'added' });
  const breaking = changes.filter((c) => c.breaking);
  return { breaking: breaking.length, compatible: changes.length - breaking.length, changes: [...breaking, ...changes.filter((c) => !c.breaking)] };
}

/** What keeps a document from being compared: not OpenAPI 3, no paths, or a `$ref` that points nowhere; else undefined. */
export function documentProblem(document: unknown): string | undefined {
  if (!document || typeof document !== 'object' || Array.isArray(document)) return 'not an OpenAPI document (no mapping at its top)';
  const doc = document as Json;
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.')) return 'not an OpenAPI 3 document (no `openapi: 3.x`)';
  if (!doc.paths || typeof doc.paths !== 'object') return 'no `paths`';
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.push(value);
        else walk(value);
      }
  };
  walk(doc);
  const broken = refs.find((ref) => pointAt(doc, ref) === undefined);
  if (broken === undefined) return undefined;
  return broken.startsWith('#') ? `$ref '${broken}' points nowhere` : `$ref '${broken}' is not local: only local $refs (#/...) are compared`;
}
