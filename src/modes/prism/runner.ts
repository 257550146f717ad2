import type * as PrismHttp from '@stoplight/prism-http';
import { ApiError } from '../../kernel/errors.js';
import { importPeer, MissingPeerError } from '../../config/optional-peers.js';
import { SPEC_FILE } from '../../config/paths.js';
import type { OperationRequest, Reply } from '../../kernel/operation.js';
import { examplesOf, fromPrismFailure, type PrismFailure } from './errors.js';
import type { PrismMock } from './mock-config.js';
import { toReply } from './reply.js';
import type { HttpOperation } from './types.js';

type PrismInstance = ReturnType<typeof PrismHttp.createInstance>;
type PrismInput = Parameters<PrismInstance['request']>[0];
type PrismConfig = NonNullable<Parameters<PrismInstance['request']>[2]>;

/** Prism embedded as a library: answers a validated request from the spec. */
export interface PrismRunner {
  /** Loads Prism and the spec (once; the first call takes a second or more). */
  ready(): Promise<void>;
  /** Prism's answer to the request, as a Reply; its failures as ApiErrors. */
  respond(request: OperationRequest, mock: PrismMock): Promise<Reply>;
}

interface Loaded {
  prism: PrismInstance;
  byId: Map<string, HttpOperation>;
}

/**
 * A fresh config per request: Prism's mocker writes the negotiated media
 * types into `config.mock`, so a shared one would keep the first request's.
 * Security and request validation are the app's and ran before; Prism's own
 * validation stays on as a second opinion whose answers are mapped.
 */
function configFor(mock: PrismMock): PrismConfig {
  return {
    // The sandbox always answers application/json, whatever Accept says, as stateful mode does.
    mock: { ...mock, mediaTypes: ['application/json'] },
    checkSecurity: false,
    validateRequest: true,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  };
}

/**
 * The body as Prism's own validation reads it. Prism turns `format: int64`
 * into bounds of ±(2^53-1), so it would refuse an int64 past them (held
 * exactly as a bigint, already validated by the sandbox): such a value goes
 * to Prism as the bound of its sign, valid wherever the exact value is.
 * Prism never echoes a request body, so nothing it answers carries the
 * stand-in; the dynamic seed is made from the exact body. Other bodies go
 * as they are.
 */
function forPrism(value: unknown): unknown {
  if (typeof value === 'bigint') return value > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
  if (Array.isArray(value)) return value.map(forPrism);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, forPrism(v)]));
}

function toInput(request: OperationRequest): PrismInput {
  // Prism ignores `servers`: it routes the path after /v1, which is what `url` holds.
  const url = new URL(request.url, 'http://sandbox.invalid');
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return { method: request.op.method, url: { path: url.pathname, query }, headers, body: forPrism(request.body) };
}

async function load(specFile: string | object, operationIds: readonly string[]): Promise<Loaded> {
  // Imported here, not at the top: Prism and its faker take seconds to load, a cost stateful mode never pays,
  // and Prism is an optional peer dependency, which a user of stateful mode need not install.
  const [{ createInstance, getHttpOperationsFromSpec }, { createLogger }] = await importPeer(
    ['@stoplight/prism-http', '@stoplight/prism-core'],
    "Answering from the spec (example and dynamic modes, a Prefer header's code=, example= or dynamic=)",
    () => Promise.all([import('@stoplight/prism-http'), import('@stoplight/prism-core')]),
  );
  // A document given as an object is Prism's to resolve: a copy, so that the sandbox's own is never changed.
  const operations = await getHttpOperationsFromSpec(typeof specFile === 'string' ? specFile : structuredClone(specFile));
  const byId = new Map(operations.flatMap((op) => (op.iid ? [[op.iid, op] as const] : [])));
  for (const id of operationIds)
    if (!byId.has(id)) throw new Error(`Prism found no operation ${id} in ${typeof specFile === 'string' ? specFile : 'the spec given'}`);
  // Prism needs its own pino logger (with the `success` level); the sandbox logs nothing per request.
  const logger = createLogger('prism', { level: 'silent' });
  return { prism: createInstance(configFor({ dynamic: false, seed: '' }), { logger }), byId };
}

/** An unknown example would make Prism fall back to another status; refuse it with the names there are. */
function checkExample(request: OperationRequest, resource: HttpOperation, mock: PrismMock): void {
  if (mock.exampleKey === undefined) return;
  const code = mock.code ?? Math.min(...[...request.op.responses.keys()].filter((c) => c >= 200 && c < 300));
  const names = examplesOf(resource, code);
  if (!names.includes(mock.exampleKey)) {
    throw ApiError.of(
      'invalid_request',
      `Prefer: example=${mock.exampleKey} names no example of ${request.op.operationId} ${code}; its examples: ${names.join(', ') || 'none'}.`,
    );
  }
}

/** Prism not installed, as a request is answered: 501, saying what to install. */
export function asNotImplemented(error: unknown): never {
  throw error instanceof MissingPeerError ? ApiError.of('not_implemented', error.message) : error;
}

/**
 * Creates the runner; nothing is loaded until `ready` or the first
 * `respond`. `ready` rejects with a MissingPeerError (a ConfigError) when
 * Prism is not installed; `respond` with a 501 that says the same.
 */
export function createPrismRunner(operationIds: readonly string[], specFile: string | object = SPEC_FILE): PrismRunner {
  let loading: Promise<Loaded> | undefined;
  const loaded = (): Promise<Loaded> => {
    if (!loading) {
      loading = load(specFile, operationIds);
      // A failed load is not remembered: the next request tries again.
      loading.catch(() => (loading = undefined));
    }
    return loading;
  };
  return {
    ready: async () => {
      await loaded();
    },
    async respond(request, mock) {
      const { prism, byId } = await loaded().catch(asNotImplemented);
      const resource = byId.get(request.op.operationId);
      if (!resource) throw new Error(`Prism has no operation ${request.op.operationId}`);
      checkExample(request, resource, mock);
      // Only this operation is offered: the app has routed already, Prism must not pick another.
      const result = await prism.request(toInput(request), [resource], configFor(mock))();
      if (result._tag === 'Left') throw fromPrismFailure(result.left as PrismFailure, request, resource, mock);
      return toReply(result.right.output, request, resource, mock);
    },
  };
}
