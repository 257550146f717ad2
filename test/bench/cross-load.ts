/**
 * The cross-instance load driver, in its own process (autocannon cannot
 * chain requests across hosts): `connections` clients, each in a loop for
 * `durationSec`, creates a pet through `create` (POST /pets) and at once
 * reads it through `read` (GET /pets/{id}). A pair counts when the create
 * answers 201 and the read 200 with the same pet; a read that differs is an
 * error. Prints one JSON line shaped as load.ts's LoadResult, per pair.
 *
 * Usage: node --import tsx test/bench/cross-load.ts '{"create","read","connections","durationSec","body","auth"}'
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';

interface CrossSpec {
  /** Base URLs (…/v1) of the instance that creates and of the one that reads. */
  create: string;
  read: string;
  connections: number;
  durationSec: number;
  body: string;
  auth: string;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as CrossSpec;
const TIMEOUT_MS = 10_000;
// Bounded whatever the servers do: the run, in-flight requests' timeout, and a margin.
setTimeout(() => (console.error('cross-load: took too long'), process.exit(2)), (spec.durationSec + 15) * 1000).unref();

// One keep-alive agent per instance (the same one when both are one), at most one socket per client each.
const agents = new Map<string, Agent>();
const agentFor = (origin: string) => agents.get(origin) ?? agents.set(origin, new Agent({ keepAlive: true, maxSockets: spec.connections })).get(origin);

interface Answer {
  status: number;
  text: string;
}

function send(url: string, method: string, body?: string): Promise<Answer> {
  const target = new URL(url);
  const headers: Record<string, string> = { authorization: spec.auth };
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  return new Promise((resolve, reject) => {
    const req = request(target, { method, headers, agent: agentFor(target.origin), timeout: TIMEOUT_MS }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

const latencies: number[] = [];
const counts = { pairs: 0, non2xx: 0, errors: 0, mismatches: 0 };
let firstProblem = '';
const note = (problem: string) => void (firstProblem ||= problem);

/** One create-then-read pair; counts its outcome. */
async function pair(): Promise<void> {
  const t0 = performance.now();
  const created = await send(`${spec.create}/pets`, 'POST', spec.body);
  if (created.status !== 201) return void (counts.non2xx++, note(`POST ${created.status}: ${created.text.slice(0, 200)}`));
  const pet = JSON.parse(created.text) as { id: number };
  const read = await send(`${spec.read}/pets/${pet.id}`, 'GET');
  if (read.status !== 200) return void (counts.non2xx++, note(`GET /pets/${pet.id} ${read.status}: ${read.text.slice(0, 200)}`));
  if (!isDeepStrictEqual(JSON.parse(read.text), pet)) return void (counts.mismatches++, note(`GET /pets/${pet.id} read ${read.text} after ${created.text}`));
  counts.pairs++;
  latencies.push(performance.now() - t0);
}

async function client(until: number): Promise<void> {
  while (performance.now() < until) {
    try {
      await pair();
    } catch (error) {
      counts.errors++;
      note(String(error));
    }
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0));

const start = performance.now();
await Promise.all(Array.from({ length: spec.connections }, () => client(start + spec.durationSec * 1000)));
const seconds = (performance.now() - start) / 1000;
for (const agent of agents.values()) agent.destroy();
const sorted = latencies.sort((a, b) => a - b);
const round2 = (n: number) => Math.round(n * 100) / 100;
console.log(
  JSON.stringify({
    rps: counts.pairs / seconds,
    p50: round2(percentile(sorted, 0.5)),
    p99: round2(percentile(sorted, 0.99)),
    requests: counts.pairs,
    non2xx: counts.non2xx,
    errors: counts.errors + counts.mismatches,
    mismatches: counts.mismatches,
    ...(firstProblem ? { firstProblem } : {}),
  }),
);
