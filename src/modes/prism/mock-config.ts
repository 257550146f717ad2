import { stringifyJson } from '../../kernel/json.js';
import type { OperationRequest } from '../../kernel/operation.js';
import type { Preferences } from '../../kernel/preferences.js';

/** What Prism's mocker is asked for one request (its `config.mock`). */
export interface PrismMock {
  dynamic: boolean;
  code?: number;
  exampleKey?: string;
  seed: string;
}

/**
 * The seed of a dynamic answer: the sandbox's `--seed` plus the request
 * (method, path, query, body). The same request with the same seed gets
 * the same body, a different request a different one, and another seed
 * changes them all. `Prefer: seed=...` replaces it, as in Prism.
 */
export function requestSeed(seed: number, request: OperationRequest): string {
  return `${seed} ${request.op.method.toUpperCase()} ${request.url} ${stringifyJson(request.body ?? null)}`;
}

/** Prism's mock options for a request: the mode's default, overridden by `Prefer`. */
export function mockFor(preferences: Preferences, defaults: { dynamic: boolean; seed: number }, request: OperationRequest): PrismMock {
  return {
    dynamic: preferences.dynamic ?? defaults.dynamic,
    ...(preferences.code !== undefined ? { code: preferences.code } : {}),
    ...(preferences.example !== undefined ? { exampleKey: preferences.example } : {}),
    seed: preferences.seed ?? requestSeed(defaults.seed, request),
  };
}
