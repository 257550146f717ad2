import type { Spec } from '../../openapi/spec.js';
import { readPreferences } from '../../http/preferences.js';
import type { ModeHandler } from '../../core/operation.js';
import type { PrismEngine } from './engine.js';
import { mockFor } from './mock-config.js';

export { createPrismEngine, type PrismEngine } from './engine.js';

/** A Prism-backed mode; `ready()` loads Prism ahead of the first request. */
export interface PrismMode extends ModeHandler {
  ready(): Promise<void>;
}

/**
 * The `example` (dynamic: false) and `dynamic` (dynamic: true) modes: Prism,
 * in process, answers from the spec's examples or generates bodies from its
 * schemas (seeded per request, see `requestSeed`). `Prefer` works as in Prism.
 * Nothing is stored: a created pet is not listed afterwards.
 */
export function createPrismMode(options: { spec: Spec; engine: PrismEngine; dynamic: boolean; seed: number }): PrismMode {
  const { engine } = options;
  return {
    operations: new Set(options.spec.operations.keys()),
    ready: () => engine.ready(),
    handle: (request) => engine.respond(request, mockFor(readPreferences(request), options, request)),
  };
}
