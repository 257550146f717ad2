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
/** The control plane's. */
const CONTROL_LIMIT = 64 * 1024 * 1024;

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

/** The fetch adapter holding every body, the control plane's too, to /v1's 100 KB: a 300 KB fixture set is refused 413. */
export const v1LimitEverywhereWay = (options: SandboxOptions): Promise<Way> =>
  rewired('fetch handler with /v1’s body limit on every path', options, (refuse) => ({ bodyLimit: V1_LIMIT, refuse }));

/**
 * The engine behind a fetch handler with no branch for proxy mode: the
 * engine does not forward (src/README.md: forwarding is transport, a branch
 * of the Node adapter), so once switched to proxy, /v1 is answered from the
 * store. Its body limit is the control plane's: only proxy mode differs.
 */
export const proxyFromStoreWay = (options: SandboxOptions): Promise<Way> =>
  rewired('the engine answering proxy mode from the store', options, (refuse) => ({ bodyLimit: CONTROL_LIMIT, refuse }));
