/**
 * `/metrics` over real HTTP, parsed with a Prometheus text-format parser:
 * requests by operation, status and mode, their latency, answers that did
 * not match the spec, store writes and their failures, open workspaces,
 * journal memory and the process's own metrics; `--metrics-token`.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf } from '../support/control-client.js';
import { onMemory, onPostgres, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { expectControlValid } from '../support/spec-check.js';

type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

/** Scrapes `/metrics`, checks the answer against the control spec, and parses it (a malformed line throws). */
async function scrape(sb: TestSandbox, token?: string): Promise<{ text: string; families: Map<string, Family> }> {
  const res = await fetch(`${sb.origin}/metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  await expectControlValid('GET', '/metrics', { status: res.status, headers: res.headers, text });
  return { text, families: new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f])) };
}

/** The value of a counter's or gauge's series with exactly these labels (undefined when there is none). */
function value(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.get(name);
  const sample = family?.metrics.find((m) => JSON.stringify(Object.entries(m.labels ?? {}).sort()) === JSON.stringify(Object.entries(labels).sort()));
  return sample?.value === undefined ? undefined : Number(sample.value);
}

/**
 * A histogram series' count, read from its `_count` line: the parser folds
 * every labelled series of a histogram into one, so it cannot tell them apart.
 */
function histogramCount(text: string, name: string, label: string, value: string): number | undefined {
  const line = new RegExp(`^${name}_count\\{${label}="${value}"\\} (\\d+)$`, 'm').exec(text);
  return line ? Number(line[1]) : undefined;
}

/** PostgreSQL and the memory store count the workspaces in use, not those kept. */
const inUseOnly = onPostgres || onMemory;

describe('/metrics', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox(['--count', '2', '--quota-pets', '3']);
    for (let i = 0; i < 3; i++) expect((await sb.call('/pets')).status).toBe(200);
    expect((await sb.call('/pets', { key: 'not-a-key' })).status).toBe(401);
    expect((await sb.call('/pets', { method: 'POST', json: { name: 'Three', categoryId: 1 } })).status).toBe(201);
    // Over the quota: a store write that fails, answered with a status the interface does not document.
    expect((await sb.call('/pets', { method: 'POST', json: { name: 'Four', categoryId: 1 } })).status).toBe(507);
    await clientOf(sb).call('resetWorkspace', { body: { count: 1 } });
    // Outside the interface: an unknown path, a method the path lacks, a status forced by a fault.
    expect((await sb.call('/nothing')).status).toBe(404);
    expect((await sb.call('/pets', { method: 'DELETE' })).status).toBe(405);
    await clientOf(sb).call('addFault', { body: { operationId: 'getPet', status: 503, count: 1 } });
    expect((await sb.call('/pets/1')).status).toBe(503);
    expect((await fetch(`${sb.origin}/readyz`)).status).toBe(200);
    expect((await fetch(`${sb.origin}/nowhere`)).status).toBe(404);
    // Refused by the HTTP parser before any handler saw it.
    expect((await fetch(`${sb.origin}/v1/pets`, { headers: { 'x-filler': 'a'.repeat(20_000) } })).status).toBe(431);
  });
  afterAll(() => sb.stop());

  it('counts requests by operation, status and mode, /v1 and the rest', async () => {
    const { families } = await scrape(sb);
    expect(families.get('petstore_http_requests_total')?.type).toBe('COUNTER');
    const requests = (operation: string, status: string) => value(families, 'petstore_http_requests_total', { operation, status, mode: 'stateful' });
    expect(requests('listPets', '200')).toBe(3);
    expect(requests('listPets', '401')).toBe(1);
    expect(requests('createPet', '201')).toBe(1);
    expect(requests('createPet', '507')).toBe(1);
    expect(requests('resetWorkspace', '200')).toBe(1);
    expect(requests('getReadiness', '200')).toBe(1);
    expect(requests('unknown', '404')).toBe(2);
    expect(requests('unknown', '431')).toBe(1);
  });

  it('times requests per operation and store writes per kind, and counts failed writes by code', async () => {
    const { text, families } = await scrape(sb);
    expect(families.get('petstore_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(histogramCount(text, 'petstore_http_request_duration_seconds', 'operation', 'listPets')).toBe(4);
    expect(histogramCount(text, 'petstore_store_write_duration_seconds', 'kind', 'create')).toBe(2);
    expect(histogramCount(text, 'petstore_store_write_duration_seconds', 'kind', 'replace')).toBe(1);
    expect(value(families, 'petstore_store_write_failures_total', { kind: 'create', code: 'quota_exceeded' })).toBe(1);
  });

  it('counts /v1 exchanges the spec does not allow by reason: not the documented 401, and a request or fault apart from a defect', async () => {
    const { families } = await scrape(sb);
    const mismatches = (operation: string, reason: string) => value(families, 'petstore_spec_mismatches_total', { operation, reason });
    expect(mismatches('createPet', 'status')).toBe(1);
    expect(mismatches('unknown', 'no_operation')).toBe(2);
    expect(mismatches('getPet', 'fault')).toBe(1);
    expect(families.get('petstore_spec_mismatches_total')?.metrics).toHaveLength(3);
  });

  it('reads open workspaces and journal memory when scraped, and has the process metrics', async () => {
    const { families } = await scrape(sb);
    // What the backend itself says (the file backend's and PostgreSQL's differ), read when scraped.
    const memory = await sb.backend.journal.memory();
    expect(value(families, 'petstore_workspaces_open')).toBe(sb.backend.workspaces.openCount());
    // The default workspace stays open on the file backend; on PostgreSQL and memory no request holds one while scraping.
    expect(value(families, 'petstore_workspaces_open')).toBe(inUseOnly ? 0 : sb.backend.workspaces.openCount());
    if (!inUseOnly) expect(value(families, 'petstore_workspaces_open')).toBeGreaterThanOrEqual(1);
    expect(value(families, 'petstore_workspaces_removed_total')).toBe(0);
    expect(value(families, 'petstore_journal_entries')).toBe(memory.kept);
    // At least the six /v1 requests (the others are not journaled).
    expect(memory.kept).toBeGreaterThanOrEqual(6);
    expect(value(families, 'petstore_journal_memory_bytes')).toBe(memory.bytes);
    expect(value(families, 'petstore_journal_memory_budget_bytes')).toBe(memory.budget);
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds'])
      expect(families.has(name), name).toBe(true);
  });
});

describe('petstore_workspaces_open with --open-keys --max-workspaces 4', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox(['--open-keys', '--count', '1', '--max-workspaces', '4']);
  });
  afterAll(() => sb.stop());

  it('counts the workspaces open (on PostgreSQL and memory, in use), never more than the cap, not every workspace ever used', async () => {
    for (let i = 0; i < 12; i++) expect((await sb.call('/pets', { key: `visitor-${i}` })).status).toBe(200);
    const after = value((await scrape(sb)).families, 'petstore_workspaces_open');
    expect(after).toBeLessThanOrEqual(4);
    expect(after).toBe(inUseOnly ? 0 : sb.backend.workspaces.openCount());
    // Three workspaces held by work under way: counted while held, and no longer once done.
    const release: (() => void)[] = [];
    const held = ['holder-1', 'holder-2', 'holder-3'].map((key) => sb.backend.workspaces.use(key, () => new Promise<void>((done) => release.push(done))));
    for (let i = 0; i < 100 && release.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const during = value((await scrape(sb)).families, 'petstore_workspaces_open');
    expect(during).toBe(inUseOnly ? 3 : sb.backend.workspaces.openCount());
    release.forEach((done) => done());
    await Promise.all(held);
    expect(value((await scrape(sb)).families, 'petstore_workspaces_open')).toBe(inUseOnly ? 0 : sb.backend.workspaces.openCount());
  });

  it("says nothing at start of open keys' workspaces: they are bounded on either backend", () => {
    expect(sb.notices.filter((n) => n.includes('--open-key-workspaces'))).toEqual([]);
  });
});

describe('--metrics-token', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox(['--metrics-token', 'scrape-token']);
  });
  afterAll(() => sb.stop());

  it('opens /metrics with that token only: none is 401, another (even the admin token) 403', async () => {
    const none = await fetch(`${sb.origin}/metrics`);
    await expectControlValid('GET', '/metrics', { status: none.status, headers: none.headers, text: await none.text() });
    expect([none.status, none.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="sandbox-metrics"']);
    const admin = await fetch(`${sb.origin}/metrics`, { headers: { authorization: `Bearer ${sb.config.adminToken}` } });
    await expectControlValid('GET', '/metrics', { status: admin.status, headers: admin.headers, text: await admin.text() });
    expect(admin.status).toBe(403);
    expect((await scrape(sb, 'scrape-token')).families.has('petstore_http_requests_total')).toBe(true);
  });

  it('leaves the probes open', async () => {
    expect((await fetch(`${sb.origin}/readyz`)).status).toBe(200);
  });
});
