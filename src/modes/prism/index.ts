import type { Spec } from '../../openapi/spec.js';
import { readPreferences } from '../../kernel/preferences.js';
import type { ModeHandler } from '../../kernel/operation.js';
import type { PrismRunner } from './runner.js';
import { mockFor } from './mock-config.js';

export { asNotImplemented, createPrismRunner, type PrismRunner } from './runner.js';

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
export function createPrismMode(options: { spec: Spec; prism: PrismRunner; dynamic: boolean; seed: number }): PrismMode {
  const { prism } = options;
  return {
    operations: new Set(options.spec.operations.keys()),
    ready: () => prism.ready(),
    handle: (request) => prism.respond(request, mockFor(readPreferences(request), options, request)),
  };
}
