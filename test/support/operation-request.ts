import { DEFAULT_API_KEY } from '../../src/config/load.js';
import { operation } from '../../src/openapi/spec.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import type { OperationRequest } from '../../src/kernel/operation.js';

/** The interface's spec, loaded once per test file. */
export const spec = loadSpec();

/**
 * A request to one operation as the pipeline hands it on (authenticated with
 * the default key, validated), for unit tests of the steps after it: the
 * interceptors, the modes and the parsers they use.
 */
export function operationRequest(operationId: string, over: Partial<OperationRequest> = {}): OperationRequest {
  return {
    op: operation(spec, operationId),
    key: DEFAULT_API_KEY,
    path: {},
    query: {},
    body: undefined,
    headers: { authorization: `Bearer ${DEFAULT_API_KEY}` },
    url: '/pets',
    ...over,
  };
}
