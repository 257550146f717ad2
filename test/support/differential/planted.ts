/**
 * Ways in with a difference planted, as a careless adapter would wire the
 * library's own pieces: the differential must notice each.
 */
import { createSandbox } from '../../../src/library/create-sandbox.js';
import { libraryStore } from '../harness.js';
import { handlerWay, type SandboxOptions, type Way } from './ways.js';

/** /v1's default body limit (`--body-limit`). */
const V1_LIMIT = 102_400;

/** The fetch handler of a library sandbox, with `around` between it and the caller. */
async function wrapped(name: string, options: SandboxOptions, around: (handler: (request: Request) => Promise<Response>) => typeof handler): Promise<Way> {
  const sandbox = await createSandbox({ ...options, store: await libraryStore() });
  const way = await handlerWay(options, { ...sandbox, handler: around(sandbox.handler) });
  return { ...way, name };
}

/** The 413 an adapter writes itself, in the engine's words: only what the engine does beside it (the journal) can tell. */
function refusedHere(): Response {
  const text = JSON.stringify({ code: 'payload_too_large', message: `Request body is larger than the limit of ${V1_LIMIT} bytes.`, status: 413 });
  return new Response(text, { status: 413, headers: { 'Content-Type': 'application/json' } });
}

/**
 * An adapter that reads every body itself and answers one over /v1's limit
 * alone, on every path, before the engine sees it: a /v1 body over the limit
 * gets the same status and body as from the engine, but is never journaled;
 * the control plane's bodies are held to /v1's 100 KB (a 300 KB fixture set
 * is refused 413).
 */
export const v1LimitEverywhereWay = (options: SandboxOptions): Promise<Way> =>
  wrapped('fetch handler that refuses a body over /v1’s limit itself, on every path', options, (handler) => async (request) => {
    const bytes = request.body === null ? 0 : (await request.clone().arrayBuffer()).byteLength;
    return bytes > V1_LIMIT ? refusedHere() : handler(request);
  });

/** The same adapter, named for the first corpus, whose over-limit bodies are all /v1's: answered alike, never journaled. */
export const withoutRefusalWay = (options: SandboxOptions): Promise<Way> => v1LimitEverywhereWay(options);

/**
 * An adapter that passes on only the headers it knows, as a hand-written
 * one might: proxy mode's `Sandbox-Violations`, which says what a proxied
 * exchange broke of the spec, is lost on the way out.
 */
export const withoutViolationsWay = (options: SandboxOptions): Promise<Way> =>
  wrapped('fetch handler that drops the headers it does not know', options, (handler) => async (request) => {
    const response = await handler(request);
    const headers = new Headers(response.headers);
    headers.delete('sandbox-violations');
    return new Response(response.body, { status: response.status, headers });
  });
