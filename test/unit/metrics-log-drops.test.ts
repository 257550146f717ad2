import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/ops/metrics.js';

/** The value of an unlabelled series in a Prometheus text exposition. */
const valueOf = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

describe('petstore_log_lines_dropped_total', () => {
  it("counts the lines the log's destination dropped, as it reports them at each scrape", async () => {
    let dropped = 0;
    const metrics = createMetrics({
      workspaces: { openCount: () => 0, removedCount: () => 0 },
      journalMemory: () => ({ bytes: 0, budget: 0, kept: 0, evicted: 0 }),
      droppedLogLines: () => dropped,
    });
    expect(await metrics.text()).toMatch(/^# TYPE petstore_log_lines_dropped_total counter$/m);
    expect(valueOf(await metrics.text(), 'petstore_log_lines_dropped_total')).toBe(0);
    dropped = 7;
    expect(valueOf(await metrics.text(), 'petstore_log_lines_dropped_total')).toBe(7);
    dropped = 12;
    expect(valueOf(await metrics.text(), 'petstore_log_lines_dropped_total')).toBe(12);
  });

  it('binds each request series once and still counts every request under its own labels', async () => {
    const metrics = createMetrics({
      workspaces: { openCount: () => 0, removedCount: () => 0 },
      journalMemory: () => ({ bytes: 0, budget: 0, kept: 0, evicted: 0 }),
    });
    for (let n = 0; n < 3; n += 1) metrics.request('listPets', 200, 'stateful', 0.001);
    metrics.request('listPets', 200, 'static');
    metrics.request('listPets', 401, 'stateful');
    metrics.request('getPet', 200, 'stateful');
    metrics.mismatch('getPet', 'body');
    metrics.mismatch('getPet', 'body');
    const text = await metrics.text();
    const count = (labels: string) => Number(new RegExp(`^petstore_http_requests_total\\{${labels}\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(count('operation="listPets",status="200",mode="stateful"')).toBe(3);
    expect(count('operation="listPets",status="200",mode="static"')).toBe(1);
    expect(count('operation="listPets",status="401",mode="stateful"')).toBe(1);
    expect(count('operation="getPet",status="200",mode="stateful"')).toBe(1);
    expect(text).toMatch(/^petstore_http_request_duration_seconds_count\{operation="listPets"\} 3$/m);
    expect(text).toMatch(/^petstore_spec_mismatches_total\{operation="getPet",reason="body"\} 2$/m);
  });

  it('counts each request once across scrapes, the series in the order first seen and the families in their order', async () => {
    const metrics = createMetrics({
      workspaces: { openCount: () => 0, removedCount: () => 0 },
      journalMemory: () => ({ bytes: 0, budget: 0, kept: 0, evicted: 0 }),
    });
    const count = (text: string, labels: string) => Number(new RegExp(`^petstore_http_requests_total\\{${labels}\\} (\\S+)$`, 'm').exec(text)?.[1]);
    const listed = 'operation="listPets",status="200",mode="stateful"';
    const got = 'operation="getPet",status="404",mode="stateful"';
    metrics.request('listPets', 200, 'stateful', 0.001);
    metrics.request('getPet', 404, 'stateful', 0.001);
    metrics.request('listPets', 200, 'stateful', 0.001);
    const first = await metrics.text();
    expect([count(first, listed), count(first, got)]).toEqual([2, 1]);
    expect(first.indexOf(listed)).toBeLessThan(first.indexOf(got));
    const families = [...first.matchAll(/^# TYPE (petstore_\S+)/gm)].map((m) => m[1]);
    expect(families.slice(0, 2)).toEqual(['petstore_http_requests_total', 'petstore_http_request_duration_seconds']);
    // A scrape with no request since: the same counts, not counted again.
    const second = await metrics.text();
    expect([count(second, listed), count(second, got)]).toEqual([2, 1]);
    metrics.request('getPet', 404, 'stateful');
    const third = await metrics.text();
    expect([count(third, listed), count(third, got)]).toEqual([2, 2]);
    expect(third).toMatch(/^petstore_http_request_duration_seconds_count\{operation="listPets"\} 2$/m);
  });
});
