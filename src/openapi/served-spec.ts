/**
 * A spec to serve (`--spec`, `createSandbox({ spec })`, a browser sandbox's
 * spec object), checked before anything starts: an OpenAPI 3.0 document
 * with operations, its base path, its validators compiled (a reference to
 * nothing fails now, not at a request), the embedded Pet Store's spec
 * recognised as such. No file is read here: the browser serves documents.
 */
import { basePathOf } from './base-path.js';
import { indexSpec, type OperationSpec, type Spec } from './spec.js';
import { createValidators, type Validators } from './validate.js';

type Json = Record<string, unknown>;

/** A spec to serve, read and checked. */
export interface ServedSpec {
  /** The file it was read from, or a name for a spec given as an object; in messages. */
  file: string;
  /** What Prism reads it from: the file, or the document. */
  source: string | Json;
  /** The path it is served under, from its first `servers` URL (`''`: the root). */
  base: string;
  spec: Spec;
  validators: Validators;
  /** Whether it is the embedded Pet Store's spec, served by the Pet Store's own engine. */
  embedded: boolean;
}

/** The document, if it is an OpenAPI 3.0 one; else why not. */
export function openApiDocument(document: unknown): Json {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new Error('not an OpenAPI document (no object at its top)');
  const version = (document as { openapi?: unknown }).openapi;
  if (typeof version !== 'string') throw new Error('not an OpenAPI 3.0 document (it has no openapi field)');
  if (!version.startsWith('3.0')) throw new Error(`OpenAPI ${version} is not supported: give an OpenAPI 3.0 document`);
  return document as Json;
}

/** Every operation's request and response schemas compiled: a `$ref` to nothing is found here. */
function compileAll(spec: Spec, validators: Validators): void {
  for (const op of spec.operations.values()) {
    validators.request(op);
    for (const { schemaPointer } of op.responses.values()) if (schemaPointer) validators.schema(schemaPointer)(undefined);
  }
}

/** Deep equality of two JSON values (a parsed document and the embedded one). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Json)[k], (b as Json)[k]));
}

/** A document as served: `file` names it, `source` is what Prism reads; the embedded spec is the Pet Store's. */
export function servedSpecOf(file: string, source: string | Json, document: Json, embedded: Spec): ServedSpec {
  const checked = openApiDocument(document);
  const base = basePathOf(checked);
  if (sameJson(checked, embedded.document)) return { file, source, base, spec: embedded, validators: createValidators(embedded), embedded: true };
  const spec = indexSpec(file, checked);
  if (spec.operations.size === 0) throw new Error('it has no operations under paths');
  const validators = createValidators(spec);
  compileAll(spec, validators);
  return { file, source, base, spec, validators, embedded: false };
}

/** Two specs under one base path are refused, naming both. */
export function checkBases(served: readonly ServedSpec[]): void {
  for (const [i, one] of served.entries()) {
    const other = served.slice(0, i).find((earlier) => earlier.base.toLowerCase() === one.base.toLowerCase());
    if (other) throw new Error(`the specs ${other.file} and ${one.file} are both served under ${one.base || '/'}: give each its own servers URL`);
  }
}

/** The base paths documents will be served under, known at once; one that is no OpenAPI 3.0 document is left out (refused when served). */
export function documentBases(sources: readonly unknown[]): string[] {
  if (sources.length === 0) return ['/v1'];
  return sources.flatMap((source) => {
    try {
      return [basePathOf(openApiDocument(source))];
    } catch {
      return [];
    }
  });
}

/**
 * Every operation of the specs served, by `operationId`: what a fault may
 * name, what the coverage report counts. An id two specs share is the
 * first's (the same operation in two versions, usually).
 */
export function servedOperations(specs: readonly { spec: Spec }[]): ReadonlyMap<string, OperationSpec> {
  if (specs.length === 1) return (specs[0] as { spec: Spec }).spec.operations;
  const operations = new Map<string, OperationSpec>();
  for (const { spec } of specs) for (const [id, op] of spec.operations) if (!operations.has(id)) operations.set(id, op);
  return operations;
}
