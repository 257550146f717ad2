/**
 * An independent check of values against a schema of an OpenAPI 3.0
 * document, for the seeding tests: Ajv on the document as written, with
 * OpenAPI's boolean `exclusiveMinimum`/`exclusiveMaximum` made draft 7's
 * numbers here, `nullable` read by Ajv itself, the formats of ajv-formats
 * plus int32 and int64.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** OpenAPI 3.0's exclusive bounds as draft 7 writes them; everything else as it is. */
function draft7(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(draft7);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, draft7(v)]));
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true) [out[flag], out[bound]] = [out[bound], undefined];
    else if (out[flag] === false) delete out[flag];
    if (out[bound] === undefined) delete out[bound];
  }
  return out;
}

/** A validator of the schema at `pointer` (`/components/schemas/Order`) of the document; errors of a failure in `errors`. */
export function schemaOracle(document: object, pointer: string): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addSchema(draft7(document) as object, 'doc');
  return ajv.compile({ $ref: `doc#${pointer}` });
}

/** A YAML spec of the repository, parsed. */
export const readSpec = (file: string): object => parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as object;
