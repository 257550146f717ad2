import type { KeywordDefinition, SchemaValidateFunction } from 'ajv';

type Json = Record<string, unknown>;

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

/** The one message for an int64 out of range, or a number a double may have rounded. */
export const INT64_MESSAGE = `must be an integer from ${MIN} to ${MAX} (past ±9007199254740991, written as plain digits)`;

/** Draft 7's bounds on a schema node, as its numbers; a bigint must respect them like a number does. */
function withinBounds(value: bigint, schema: Json): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && value < minimum) return false;
  if (typeof maximum === 'number' && value > maximum) return false;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return false;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return false;
  return true;
}

/**
 * `type: integer, format: int64` for values parsed by `parseJson`: a safe
 * integer as a number (Ajv applies the node's bounds to it), or a bigint
 * within int64 and the node's bounds. A number that is not a safe integer
 * is refused: a literal such as `9.2e18` or `1e19` came through a double, so
 * its digits may already be lost.
 */
const validateInt64: SchemaValidateFunction = (_schema: unknown, data: unknown, parentSchema?: unknown): boolean => {
  const fail = (message: string, params: Record<string, unknown>) => {
    validateInt64.errors = [{ keyword: 'x-int64', message, params }];
    return false;
  };
  if (typeof data === 'bigint') {
    if (data < MIN || data > MAX) return fail(INT64_MESSAGE, { format: 'int64' });
    return withinBounds(data, (parentSchema ?? {}) as Json) || fail('is out of range', { bounds: true });
  }
  // Infinity (`1e400`) is a number past any int64, not a wrong type.
  if (typeof data !== 'number' || Number.isNaN(data) || (Number.isFinite(data) && !Number.isInteger(data))) return fail('must be integer', { type: 'integer' });
  return Number.isSafeInteger(data) || fail(INT64_MESSAGE, { format: 'int64' });
};

/** The keyword `withExactInt64` puts in place of `type: integer, format: int64`. */
export const INT64_KEYWORD: KeywordDefinition = { keyword: 'x-int64', errors: true, validate: validateInt64 };

/**
 * A schema document whose `type: integer, format: int64` nodes check with
 * `x-int64` instead: Ajv's `integer` type refuses a bigint, so it cannot
 * check an int64 past 2^53 held exactly. Every other keyword of the node
 * stays, and so does the structure (JSON pointers address the same nodes).
 */
export function withExactInt64(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withExactInt64);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = withExactInt64(value);
  if (out.type === 'integer' && out.format === 'int64') {
    delete out.type;
    delete out.format;
    out['x-int64'] = true;
  }
  return out;
}
