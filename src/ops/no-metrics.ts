import type { Metrics } from './metrics.js';

/** What `/metrics` answers where no metrics are kept: a Prometheus comment that says why, so a scraper reads no series and a person reads the reason. */
export const NO_METRICS_TEXT =
  '# No metrics: this sandbox runs in a browser, where Prometheus cannot scrape it and prom-client does not run. The Node server and library serve them.\n';

/**
 * Metrics that count nothing, for a sandbox in a browser: the engine reports
 * to them as to Prometheus's, at no cost, and `/metrics` answers a comment.
 */
export function createNoMetrics(): Metrics {
  return {
    request: () => undefined,
    mismatch: () => undefined,
    storeWrite: () => undefined,
    text: () => Promise.resolve(NO_METRICS_TEXT),
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
  };
}
