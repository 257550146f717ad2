import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MaybePromise, WorkspaceStore } from '../store/backend.js';
import type { JournalMemory } from '../store/journal/types.js';
import type { StoreWrite } from '../store/write-times.js';

/** What the gauges read when Prometheus scrapes. */
export interface MetricSources {
  /** Workspaces open (or in use) now, and those of open keys removed since start. */
  workspaces: Pick<WorkspaceStore, 'openCount' | 'removedCount'>;
  journalMemory(): MaybePromise<JournalMemory>;
  /** Request log lines dropped since start because the log's destination did not keep up. */
  droppedLogLines?: () => number;
}

/**
 * Why an exchange broke the spec, so that a dashboard can tell a sandbox
 * defect (`body`) from a request outside the interface (`no_operation`: an
 * unknown path's 404, a 405, the store area's 501), a rehearsal (`fault`)
 * and the sandbox's own refusals or failures (`status`: a 413, a 507).
 */
export type MismatchReason = 'no_operation' | 'fault' | 'status' | 'body';

/** The sandbox's metrics: what the pipeline and the store report, and the exposition Prometheus scrapes. */
export interface Metrics {
  /**
   * An answered request (any operation; `operation` is `unknown` for a path none serves, or a request
   * refused before it was read), and its time to the answer when known.
   */
  request(operation: string, status: number, mode: string, seconds?: number): void;
  /** A /v1 exchange the interface's spec does not allow, and why (see `MismatchReason`). */
  mismatch(operation: string, reason: MismatchReason): void;
  /** A store write, and its failure code if it failed. */
  storeWrite(kind: StoreWrite, seconds: number, failure?: string): void;
  /** The Prometheus text exposition: the sandbox's series, then the process's. */
  text(): Promise<string>;
  readonly contentType: string;
}

/** Seconds: from a fast read (well under a millisecond) to a write behind an injected 10 s fault. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The process's own metrics, registered once per process: several sandboxes in one (tests) share them. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** A request series: its labels, its count since the last scrape, its latency bound to its label. */
interface Series {
  labels: { operation: string; status: string; mode: string };
  /** Requests counted since the counter last took them (its `collect()`, at scrape time). */
  unread: number;
  time: { observe(seconds: number): void };
}

/**
 * Counts a request in its series, found by plain map lookups: no label
 * object hashed, no key string built per request. The count is a plain
 * number added to the counter when Prometheus scrapes (`fold`, from the
 * counter's `collect()`): prom-client's bound child would hash and validate
 * its labels on every `inc`.
 */
function requestCounter(latency: Histogram): { request: Metrics['request']; fold(requests: Counter): void } {
  const series = new Map<string, Map<string, Map<number, Series>>>();
  const all: Series[] = [];
  return {
    request(operation, status, mode, seconds) {
      let byOperation = series.get(mode);
      if (!byOperation) series.set(mode, (byOperation = new Map()));
      let byStatus = byOperation.get(operation);
      if (!byStatus) byOperation.set(operation, (byStatus = new Map()));
      let s = byStatus.get(status);
      if (!s) {
        s = { labels: { operation, status: String(status), mode }, unread: 0, time: latency.labels(operation) };
        byStatus.set(status, s);
        all.push(s);
      }
      s.unread++;
      if (seconds !== undefined) s.time.observe(seconds);
    },
    fold(requests) {
      for (const s of all)
        if (s.unread > 0) {
          requests.inc(s.labels, s.unread);
          s.unread = 0;
        }
    },
  };
}

/** The request counter and latency histogram, in this order in `registry`; returns what counts a request. */
function requestMetrics(registry: Registry): Metrics['request'] {
  const latency = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time from a request to its answer, by operation.',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers: [],
  });
  const { request, fold } = requestCounter(latency);
  new Counter({
    name: 'petstore_http_requests_total',
    help: 'Requests answered, by operation, status and mode.',
    labelNames: ['operation', 'status', 'mode'],
    registers: [registry],
    collect() {
      fold(this);
    },
  });
  registry.registerMetric(latency);
  return request;
}

/** The gauges read at scrape time. */
function registerGauges(registers: Registry[], sources: MetricSources): void {
  new Gauge({
    name: 'petstore_workspaces_open',
    help: 'Workspaces open now (each an API key with its data in memory; on PostgreSQL and the memory store, in use by this instance).',
    registers,
    collect() {
      this.set(sources.workspaces.openCount());
    },
  });
  let removed = 0;
  new Counter({
    name: 'petstore_workspaces_removed_total',
    help: 'Workspaces of open keys removed with their data, beyond --open-key-workspaces or unused past --open-key-ttl.',
    registers,
    collect() {
      const now = sources.workspaces.removedCount();
      if (now > removed) this.inc(now - removed);
      removed = now;
    },
  });
  let dropped = 0;
  new Counter({
    name: 'petstore_log_lines_dropped_total',
    help: 'Log lines dropped because stdout was not read as fast as the log wrote it (the sandbox also says so on stderr).',
    registers,
    collect() {
      const now = sources.droppedLogLines?.() ?? 0;
      if (now > dropped) this.inc(now - dropped);
      dropped = now;
    },
  });
  const journal = (name: string, help: string, field: keyof JournalMemory) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        this.set((await sources.journalMemory())[field]);
      },
    });
  journal('petstore_journal_memory_bytes', 'Bytes the journals hold together.', 'bytes');
  journal('petstore_journal_memory_budget_bytes', 'Bytes the journals may hold together (--journal-memory).', 'budget');
  journal('petstore_journal_entries', 'Entries the journals hold together.', 'kept');
}

/**
 * The metrics of one sandbox, in a registry of its own. Labels are the
 * operation, status, mode, store write kind and failure code: all bounded,
 * none an API key, a token or a workspace.
 */
export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const request = requestMetrics(registry);
  const mismatches = new Counter({
    name: 'petstore_spec_mismatches_total',
    help: '/v1 exchanges spec/openapi.yaml does not allow, by operation and reason (no_operation, fault, status, body).',
    labelNames: ['operation', 'reason'],
    registers,
  });
  const writes = new Histogram({
    name: 'petstore_store_write_duration_seconds',
    help: 'Store writes until durable (or failed), by kind.',
    labelNames: ['kind'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const failures = new Counter({
    name: 'petstore_store_write_failures_total',
    help: 'Store writes that failed, by kind and error code.',
    labelNames: ['kind', 'code'],
    registers,
  });
  registerGauges(registers, sources);
  const mismatchSeries = new Map<string, ReturnType<typeof mismatches.labels>>();
  // Bound on first use, as the request series are: a create observes its write without hashing its labels again.
  const writeSeries = new Map<string, ReturnType<typeof writes.labels>>();
  return {
    request,
    mismatch(operation, reason) {
      const key = `${operation} ${reason}`;
      let s = mismatchSeries.get(key);
      if (!s) mismatchSeries.set(key, (s = mismatches.labels(operation, reason)));
      s.inc();
    },
    storeWrite(kind, seconds, failure) {
      let s = writeSeries.get(kind);
      if (!s) writeSeries.set(kind, (s = writes.labels(kind)));
      s.observe(seconds);
      if (failure !== undefined) failures.inc({ kind, code: failure });
    },
    async text() {
      return `${await registry.metrics()}\n${await processMetrics().metrics()}`;
    },
    contentType: registry.contentType,
  };
}
