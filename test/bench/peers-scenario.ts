/**
 * The peers comparison (`--only=peers`): the sandbox with its defaults
 * beside json-server, Mockoon CLI, WireMock, Prism and the bare node:http
 * handler, on the interface's three operations: GET /v1/pets and GET
 * /v1/pets/7 at 10 connections, POST /v1/pets at 100. Rounds alternate
 * (scenarios.ts `compare`); each target is the median of the ratios taken
 * within a round.
 */
import { join } from 'node:path';
import { roundRatio, type LoadResult } from './load.js';
import { checkPeers } from './peer-check.js';
import { PET_ID } from './peer-files.js';
import { PEER_LABELS, startJsonServer, startMockoon, startWireMock } from './peers.js';
import { startBare, startSandbox, type ServerProcess } from './processes.js';
import { ratioTarget, rowsOf, type Row, type Target } from './report.js';
import { compare, freshCopy, NEW_PET, type BenchOptions, type Contender } from './scenarios.js';

/** The scenarios' names, as rows and targets name them. */
export const PEER_SCENARIOS = {
  list: 'peers: GET /v1/pets, c10',
  byId: `peers: GET /v1/pets/${PET_ID}, c10`,
  create: 'peers: POST /v1/pets, c100 (the sandbox fsyncs each create)',
} as const;

/** The targets: the sandbox's req/s over WireMock's, the best of the peers that serve the same answers. */
const MIN = { list: 1.2, byId: 1.2, create: 1 } as const;

/** WireMock's warm-up per scenario: on a busy 2-core machine its JIT takes tens of seconds of load to reach its pace (the others: 3 s). */
const JVM_WARMUP_SEC = 30;

/** The running servers the peers are measured beside (the run's own). */
export interface PeersContext {
  opts: BenchOptions;
  work: string;
  /** The sandbox on a data file seeded with 50 pets, with its defaults. */
  sandbox: ServerProcess;
  prism: ServerProcess;
}

/** The three scenarios' rows and their targets. */
export async function peersResults(ctx: PeersContext): Promise<{ rows: Row[]; targets: Target[] }> {
  const dir = join(ctx.work, 'peers');
  const template = join(dir, 'sandbox');
  await (await startSandbox(join(template, 'db.json'), 50, 'sandbox (peers, 50 pets)')).stop();
  const started: ServerProcess[] = [];
  const keep = async (server: Promise<ServerProcess>) => (started.push(await server), started.at(-1) as ServerProcess);
  try {
    const jsonServer = await keep(startJsonServer(join(dir, 'json-server')));
    const mockoon = await keep(startMockoon(join(dir, 'mockoon')));
    const wireMock = await keep(startWireMock(join(dir, 'wiremock')));
    const bare = await keep(startBare());
    await checkPeers(ctx.sandbox, [jsonServer, mockoon, wireMock, bare]);
    const peers = (sandbox: Contender, json: Contender): Contender[] => [
      sandbox,
      json,
      { label: PEER_LABELS.mockoon, server: mockoon },
      { label: PEER_LABELS.wireMock, server: wireMock, warmupSec: JVM_WARMUP_SEC },
      { label: 'prism', server: ctx.prism },
      { label: 'node:http', server: bare },
    ];
    const reads = peers({ label: 'sandbox', server: ctx.sandbox }, { label: PEER_LABELS.jsonServer, server: jsonServer });
    const list = await compare(ctx.opts, reads, { path: '/pets', connections: 10 });
    const byId = await compare(ctx.opts, reads, { path: `/pets/${PET_ID}`, connections: 10 });
    // Creates change the store: the sandbox and json-server (which stores them too) start each round on a fresh copy.
    let n = 0;
    const json = { label: PEER_LABELS.jsonServer, fresh: () => startJsonServer(join(dir, `json-server-post-${(n += 1)}`)) };
    const creates = peers(freshCopy('sandbox', template, dir), json);
    const create = await compare(ctx.opts, creates, { path: '/pets', connections: 100, body: NEW_PET });
    const vsWireMock = (results: Map<string, LoadResult>) => roundRatio(results.get('sandbox'), results.get(PEER_LABELS.wireMock));
    const target = (what: string, results: Map<string, LoadResult>, min: number) =>
      ratioTarget(`peers: ${what} (median of per-round ratios)`, vsWireMock(results), 1, min);
    return {
      rows: [...rowsOf(PEER_SCENARIOS.list, list, 'prism'), ...rowsOf(PEER_SCENARIOS.byId, byId, 'prism'), ...rowsOf(PEER_SCENARIOS.create, create, 'prism')],
      targets: [
        target(`GET /v1/pets c10 vs ${PEER_LABELS.wireMock}`, list, MIN.list),
        target(`GET /v1/pets/${PET_ID} c10 vs ${PEER_LABELS.wireMock}`, byId, MIN.byId),
        target(`POST /v1/pets c100, fsync before each 201, vs ${PEER_LABELS.wireMock}'s canned 201`, create, MIN.create),
      ],
    };
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}
