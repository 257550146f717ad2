/**
 * The specs `--spec` names, read and checked before anything else starts:
 * each with its base path, its validators compiled (so that a reference to
 * nothing fails now, naming the file, not at a request), the embedded Pet
 * Store's spec recognised as such.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { ConfigError } from '../config/error.js';
import { basePathOf } from '../openapi/base-path.js';
import { loadSpec } from '../openapi/load-spec.js';
import { indexSpec, type Spec } from '../openapi/spec.js';
import { createValidators, type Validators } from '../openapi/validate.js';

/** A spec to serve, read and checked. */
export interface ServedSpec {
  file: string;
  /** The path it is served under, from its first `servers` URL (`''`: the root). */
  base: string;
  spec: Spec;
  validators: Validators;
  /** Whether it is the embedded Pet Store's spec, served by the Pet Store's own engine. */
  embedded: boolean;
}

/** The reason a file cannot be read as a spec, in a few words. */
function readProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EACCES') return 'permission denied';
  return (message ?? String(error)).split('\n')[0] as string;
}

/** The document of a spec file: YAML (JSON is YAML too), an OpenAPI 3.0 object. */
function readDocument(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(readProblem(error));
  }
  let document: unknown;
  try {
    document = parse(text, { prettyErrors: false });
  } catch (error) {
    throw new Error(`not valid YAML or JSON: ${readProblem(error)}`);
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new Error('not an OpenAPI document (no object at its top)');
  const version = (document as { openapi?: unknown }).openapi;
  if (typeof version !== 'string') throw new Error('not an OpenAPI 3.0 document (it has no openapi field)');
  if (!version.startsWith('3.0')) throw new Error(`OpenAPI ${version} is not supported: give an OpenAPI 3.0 document`);
  return document as Record<string, unknown>;
}

/** Every operation's request and response schemas compiled: a `$ref` to nothing is found here. */
function compileAll(spec: Spec, validators: Validators): void {
  for (const op of spec.operations.values()) {
    validators.request(op);
    for (const { schemaPointer } of op.responses.values()) if (schemaPointer) validators.schema(schemaPointer)(undefined);
  }
}

function readServedSpec(file: string, embedded: Spec): ServedSpec {
  const document = readDocument(file);
  const base = basePathOf(document);
  if (isDeepStrictEqual(document, embedded.document)) return { file, base, spec: embedded, validators: createValidators(embedded), embedded: true };
  const spec = indexSpec(file, document);
  if (spec.operations.size === 0) throw new Error('it has no operations under paths');
  const validators = createValidators(spec);
  compileAll(spec, validators);
  return { file, base, spec, validators, embedded: false };
}

/**
 * The specs of `--spec`, each read and checked, in order; undefined when
 * none was given (the embedded Pet Store alone). A file that cannot be
 * served, or two specs under one base path, is a ConfigError naming them.
 */
export function loadServedSpecs(files: readonly string[]): ServedSpec[] | undefined {
  if (files.length === 0) return undefined;
  const embedded = loadSpec();
  const served = files.map((file) => {
    try {
      return readServedSpec(file, embedded);
    } catch (error) {
      throw new ConfigError(`cannot serve the spec ${file}: ${readProblem(error)}`);
    }
  });
  for (const [i, one] of served.entries()) {
    const other = served.slice(0, i).find((earlier) => earlier.base.toLowerCase() === one.base.toLowerCase());
    if (other) throw new ConfigError(`the specs ${other.file} and ${one.file} are both served under ${one.base || '/'}: give each its own servers URL`);
  }
  return served;
}
