type Json = Record<string, unknown>;

/**
 * An OpenAPI 3.0 document with its schema keywords in the form Ajv 8
 * (JSON Schema draft 7) reads. OpenAPI 3.0 writes an exclusive bound as a
 * boolean beside `minimum`/`maximum` (`minimum: 0, exclusiveMinimum: true`);
 * draft 7 makes the bound itself the value (`exclusiveMinimum: 0`), and Ajv
 * refuses to compile the boolean form. Nothing else differs for the
 * keywords these specs use. The structure is kept, so JSON pointers into the
 * document still address the same nodes.
 */
export function toDraft7(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toDraft7);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = toDraft7(value);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
  return out;
}
