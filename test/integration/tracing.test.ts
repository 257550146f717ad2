/**
 * OpenTelemetry traces from the built server (docs/tracing.md): with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at an endpoint of the test's own,
 * each request's span continues the caller's `traceparent` and carries the
 * operation, the workspace's id (never the key), the status and the mode;
 * the store's reads and writes are its children; proxy mode hands the
 * upstream its own `traceparent`; a stop (SIGTERM) exports what is held.
 * Without the variable, no OpenTelemetry module is even loaded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleSandbox } from '../support/bundle.js';
import { onMemory, onPostgres, tempDir } from '../support/harness.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { createDatabase, postgresUrl } from '../support/postgres.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const KEY = 'tracing-key-never-exported';
const ADMIN = 'tracing-admin-never-exported';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PROXY_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = { get: '00f067aa0ba902b7', create: '00f067aa0ba902b8', proxied: '00f067aa0ba902b9' };
const traceparent = (trace: string, span: string) => `00-${trace}-${span}-01`;

/** A preload that says on stderr each OpenTelemetry package the process resolves: loaded or not, seen from outside. */
function otelWitness(): string {
  const file = join(tempDir(), 'otel-witness.mjs');
  writeFileSync(
    file,
    `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/')) process.stderr.write('otel-resolved ' + specifier + '\\n');
  return next(specifier, context);
} });
`,
  );
  return file;
}

/** `--store` on the run's backend, and the name the store's spans give it. */
async function storeOf(): Promise<{ args: string[]; name: string }> {
  if (onMemory) return { args: ['--store', 'memory'], name: 'memory' };
  if (!onPostgres) return { args: [], name: 'file' };
  const port = inject('postgresPort');
  return { args: ['--store', postgresUrl(port, await createDatabase(port, 'otel'))], name: 'postgresql' };
}

/** An upstream for proxy mode that records each request's `traceparent` and answers an empty list. */
async function recordingUpstream(): Promise<{ url: string; seen: (string | undefined)[]; server: Server }> {
  const seen: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.traceparent as string | undefined);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

let bin: string;
let witness: string;
beforeAll(async () => {
  bin = await bundleSandbox('tracing');
  witness = otelWitness();
}, 120_000);

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let receiver: OtlpReceiver;
  let upstream: Awaited<ReturnType<typeof recordingUpstream>>;
  let spans: ReceivedSpan[];
  let workspace: string;
  let stderr: string;
  let storeName: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = await recordingUpstream();
    const store = await storeOf();
    storeName = store.name;
    const args = ['--api-keys', KEY, '--admin-token', ADMIN, '--upstream', `${upstream.url}/v1`, ...store.args];
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: '' };
    let sb: ChildSandbox | undefined;
    try {
      sb = await spawnSandbox(join(tempDir(), 'db.json'), args, { bin, env, nodeOptions: ['--import', witness] });
      const call = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
        fetch(`${sb?.origin}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, ...headers } });
      expect((await call('/v1/pets/1', { traceparent: traceparent(TRACE, CALLER_SPAN.get) })).status).toBe(200);
      const created = await call(
        '/v1/pets',
        { traceparent: traceparent(TRACE, CALLER_SPAN.create), 'content-type': 'application/json' },
        { method: 'POST', body: JSON.stringify({ name: 'Traced', categoryId: 1 }) },
      );
      expect(created.status).toBe(201);
      const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
      const listed = await fetch(`${sb.origin}/__sandbox/workspaces`, { headers: admin });
      workspace = ((await listed.json()) as { workspaces: { workspace: string }[] }).workspaces[0]?.workspace ?? '';
      const switched = await fetch(`${sb.origin}/__sandbox/mode`, { method: 'PUT', headers: admin, body: JSON.stringify({ mode: 'proxy' }) });
      expect(switched.status).toBe(200);
      expect((await call('/v1/pets', { traceparent: traceparent(PROXY_TRACE, CALLER_SPAN.proxied) })).status).toBe(200);
      // What is still held is exported by the stop: nothing waits for the batch's delay.
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      stderr = sb.stderr();
    } finally {
      await killSandbox(sb);
    }
    spans = receiver.spans();
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await new Promise((resolve) => upstream?.server.close(resolve));
  });

  const serverSpan = (parent: string) => spans.find((s) => s.kind === 2 && s.parentSpanId === parent);

  it('exports over OTLP/HTTP, as the default service name, loading the packages only then', () => {
    expect(receiver.paths.length).toBeGreaterThan(0);
    expect(new Set(receiver.paths)).toEqual(new Set(['/v1/traces']));
    expect(spans[0]?.resource['service.name']).toBe('petstore-sandbox');
    expect(stderr).toContain('otel-resolved @opentelemetry/sdk-trace');
  });

  it("continues the caller's traceparent with one server span named by its route, with the operation, workspace, status and mode", () => {
    const get = serverSpan(CALLER_SPAN.get);
    expect(get).toMatchObject({ traceId: TRACE, name: 'GET /v1/pets/{petId}', status: 0 });
    expect(get?.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/v1/pets/{petId}',
      'http.response.status_code': 200,
      'url.path': '/v1/pets/1',
      'petstore.operation': 'getPet',
      'petstore.workspace': workspace,
      'petstore.mode': 'stateful',
    });
    expect(workspace).toMatch(/^[0-9a-f]{8,}$/);
    const create = serverSpan(CALLER_SPAN.create);
    expect(create).toMatchObject({ traceId: TRACE, name: 'POST /v1/pets' });
    expect(create?.attributes).toMatchObject({ 'petstore.operation': 'createPet', 'http.response.status_code': 201 });
  });

  it("makes the store's read and write child spans of the request's", () => {
    for (const [caller, name] of [
      [CALLER_SPAN.get, 'store.getText'],
      [CALLER_SPAN.create, 'store.createText'],
    ] as const) {
      const parent = serverSpan(caller);
      const child = spans.find((s) => s.parentSpanId === parent?.spanId);
      expect(child, name).toMatchObject({ traceId: TRACE, name, kind: 1 });
      expect(child?.attributes).toEqual({ 'petstore.store': storeName, 'petstore.workspace': workspace });
    }
  });

  it("gives the control plane's requests spans too, and the upstream the proxied request's own traceparent", () => {
    const control = spans.find((s) => s.kind === 2 && s.attributes['petstore.operation'] === 'listWorkspaces');
    expect(control).toMatchObject({ name: 'GET', parentSpanId: '' });
    const proxied = serverSpan(CALLER_SPAN.proxied);
    expect(proxied).toMatchObject({ traceId: PROXY_TRACE, name: 'GET /v1/pets' });
    expect(proxied?.attributes).toMatchObject({ 'petstore.mode': 'proxy', 'petstore.operation': 'listPets' });
    expect(upstream.seen).toEqual([traceparent(PROXY_TRACE, proxied?.spanId ?? 'none')]);
  });

  it('never exports an API key or the admin token', () => {
    for (const body of receiver.bodies) {
      expect(body).not.toContain(KEY);
      expect(body).not.toContain(ADMIN);
    }
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('loads no OpenTelemetry package, though other OTEL_ variables are set', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_SERVICE_NAME: 'not-traced' };
    let sb: ChildSandbox | undefined;
    try {
      sb = await spawnSandbox(join(tempDir(), 'db.json'), [...(await storeOf()).args], { bin, env, nodeOptions: ['--import', witness] });
      const answer = await fetch(`${sb.origin}/v1/pets/1`, {
        headers: { authorization: 'Bearer sandbox-key', traceparent: traceparent(TRACE, CALLER_SPAN.get) },
      });
      expect(answer.status).toBe(200);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      expect(sb.stderr()).not.toContain('otel-resolved');
    } finally {
      await killSandbox(sb);
    }
  }, 120_000);
});
