import type { Mode } from '../config/load.js';
import type { Interceptor, OperationRequest } from '../kernel/operation.js';
import type { PrismRunner } from '../modes/prism/runner.js';
import { mockFor } from '../modes/prism/mock-config.js';
import { readPreferences } from '../kernel/preferences.js';

/**
 * `Prefer` in every mode. A malformed preference or an undocumented
 * `code` is a 400 Error everywhere. In stateful mode, `code=<status>` or
 * `example=<name>` answers as example mode would (the spec's example of
 * that documented status, or a generated body with `dynamic=true`)
 * without reading or changing the store. Prism modes honour `Prefer`
 * themselves, so there the request goes on.
 */
export function createPreferInterceptor(options: { prism: PrismRunner; seed: number }): Interceptor {
  const intercept: Interceptor = async (request, mode) => {
    const preferences = readPreferences(request);
    if (mode !== 'stateful' || (preferences.code === undefined && preferences.example === undefined)) return undefined;
    return options.prism.respond(request, mockFor(preferences, { dynamic: false, seed: options.seed }, request));
  };
  // Without a Prefer header there is nothing to read: the pipeline passes it by, not a turn of the event loop later.
  return Object.assign((request: OperationRequest, mode: Mode) => intercept(request, mode), { onHeader: 'prefer' });
}
