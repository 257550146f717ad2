/**
 * Ways in with a difference planted, wired from the library's own pieces as
 * a careless adapter would wire them: the differential must notice each.
 */
import { createFetchHandler, type FetchHandlerOptions } from '../../../src/adapters/fetch.js';
import type { EngineRefuse } from '../../../src/core/engine.js';
import { openSandbox } from '../../../src/library/create-sandbox.js';
import { libraryStore } from '../harness.js';
import { handlerWay, type SandboxOptions, type Way } from './ways.js';

/** /v1's default body limit (`--body-limit`). */
const V1_LIMIT = 102_400;
/** The fetch handler over a library sandbox's engine, wired by `wiring` (given the engine's `refuse`) instead of as the library wires it. */
async function rewired(name: string, options: SandboxOptions, wiring: (refuse: EngineRefuse) => FetchHandlerOptions): Promise<Way> {
  const { sandbox, refuse } = await openSandbox({ ...options, store: await libraryStore() });
  const way = await handlerWay(options, { ...sandbox, handler: createFetchHandler(sandbox.handle, wiring(refuse)) });
  return { ...way, name };
}

/**
 * The fetch adapter wired without the engine's answer to a body it could
 * not read (`refuse`). A body over the limit or not decodable is then
 * answered by the adapter alone: the same status and body, but never
 * journaled.
 */
export const withoutRefusalWay = (options: SandboxOptions): Promise<Way> =>
  rewired('fetch handler without the engine’s refusal', options, () => ({ bodyLimit: V1_LIMIT }));
