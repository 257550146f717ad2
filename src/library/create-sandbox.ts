import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Duplex } from 'node:stream';
import type { Server } from 'node:http';
import { createFetchHandler, createInProcessFetch } from '../adapters/fetch.js';
import type { Engine } from '../engine/engine.js';
import type { BodyDecoders } from '../adapters/fetch-body.js';
import { createControlClient } from '../control/client.js';
import type { Config } from '../config/load.js';
import { checkExposure } from '../config/exposure.js';
import { closeServer } from '../adapters/node-server.js';
import { ConfigError } from '../config/error.js';
import { claimDataFile, probePort, type DataClaim } from '../server/start-claim.js';
import { assembleSandbox, listenAssembled } from '../server/sandbox.js';
import type { Assembled } from '../server/sandbox-types.js';
import { configOf, type CreateSandboxOptions } from './options.js';
import { specSources } from './option-values.js';
import type { SpecSource } from '../server/served-specs.js';
import { resolve } from 'node:path';
import { workspaceOf } from './workspace.js';
import { IN_PROCESS_ORIGIN, type PetstoreSandbox } from './petstore-sandbox.js';

export { IN_PROCESS_ORIGIN, type PetstoreSandbox } from './petstore-sandbox.js';

/** A zlib decoder as a web stream pair. */
const through = (decoder: () => Duplex) => (encoded: ReadableStream<Uint8Array>) =>
  encoded.pipeThrough(Duplex.toWeb(decoder()) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);

/** Node's zlib, as the server decodes: `br` too (the Compression Streams API has none), and zlib's own words for a body that does not decode. */
const NODE_DECODERS: BodyDecoders = { gzip: through(createGunzip), deflate: through(createInflate), br: through(createBrotliDecompress) };

/** The data file's claim (its lock), for a sandbox on a data file (as the command line's). */
const claimOf = (config: Config): Promise<DataClaim | undefined> =>
  config.postgresUrl !== undefined || config.memory ? Promise.resolve(undefined) : claimDataFile(config.dataFile, 'library');

/** A busy port in the library's words: the option to change is `port` (the command line says `--port`). */
const portRefusal = (port: number, host: string) => (error: unknown) => {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  throw new ConfigError(`port ${port} on ${host} is already in use: choose another \`port\` (0 for any free one).`);
};

/**
 * A sandbox for a test suite or a dev server: seeded, stateful, validating,
 * with workspaces, faults and a journal, answering in process through
 * `fetch` (the memory store by default: nothing is written to disk).
 * Rejects with a ConfigError for an option the command line would refuse.
 */
export async function createSandbox(options: CreateSandboxOptions = {}): Promise<PetstoreSandbox> {
  return (await openSandbox(options)).sandbox;
}

/** The specs of the `spec` option, when it holds a document (files alone are the configuration's `specs`). */
function specsOption(options: CreateSandboxOptions): { specs?: SpecSource[] } {
  const sources = specSources(options.spec);
  if (sources.every((one) => typeof one === 'string')) return {};
  return { specs: sources.map((one) => (typeof one === 'string' ? resolve(one) : (one as Record<string, unknown>))) };
}

/** A library sandbox and its engine (the middleware serves through it). */
export async function openSandbox(options: CreateSandboxOptions): Promise<{ sandbox: PetstoreSandbox; engine: Engine }> {
  const config = configOf(options);
  checkExposure(config);
  // Before anything is written (a data file seeded, a database's schema made): a start that fails leaves nothing behind.
  await probePort(config.port, config.host).catch(portRefusal(config.port, config.host));
  const claim = await claimOf(config);
  const lock = claim?.lock;
  let assembled: Assembled;
  try {
    assembled = await assembleSandbox(config, undefined, specsOption(options));
  } catch (error) {
    await claim?.abandon();
    throw error;
  }
  const { engine } = assembled;
  const fetchOptions = { decoders: NODE_DECODERS };
  const handler = createFetchHandler(engine, fetchOptions);
  const fetchIn = createInProcessFetch(engine, fetchOptions, IN_PROCESS_ORIGIN);
  const client = createControlClient({ origin: IN_PROCESS_ORIGIN, adminToken: config.adminToken, fetch: fetchIn as typeof fetch });
  let server: Server | undefined;
  let url: string | undefined;
  let closed: Promise<void> | undefined;
  /** Stops; a start that `failed` is undone, what it wrote beside the data file removed before its lock goes. */
  const close = async (failed = false) => {
    // First the engine: what waits is answered 503 and the live tails end, so the listener has nothing left to wait for.
    engine.close();
    if (server) await closeServer(server);
    await assembled.close();
    if (failed) await claim?.abandon();
    else lock?.release();
  };
  const sandbox: PetstoreSandbox = {
    get url() {
      return url;
    },
    apiKeys: config.apiKeys,
    adminToken: config.adminToken,
    fetch: fetchIn,
    handler,
    handle: (request) => engine.handle(request),
    workspace: (key = config.apiKeys[0] as string) => workspaceOf(client, key),
    async listen(port = options.port ?? 0) {
      if (url !== undefined) return url;
      ({ server, origin: url } = await listenAssembled(assembled, config, port).catch(portRefusal(port, config.host)));
      await lock?.setOrigin(url);
      return url;
    },
    close: () => (closed ??= close()),
  };
  if (options.port !== undefined) {
    try {
      await sandbox.listen(options.port);
    } catch (error) {
      await (closed ??= close(true));
      throw error;
    }
  }
  return { sandbox, engine };
}
