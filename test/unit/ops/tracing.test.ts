/**
 * When the sandbox traces (ops/tracing.ts), and what a request's span is
 * told at its end (ops/span-ends.ts): the route under the API's base, the
 * workspace's id rather than the key.
 */
import { describe, expect, it } from 'vitest';
import type { SpanOutcome, Tracing } from '../../../src/kernel/tracing.js';
import type { AnsweredRequest, Runtime, V1Exchange } from '../../../src/kernel/operation.js';
import { routeOf, spanEnds } from '../../../src/ops/span-ends.js';
import { loadTracing, tracingWanted } from '../../../src/ops/tracing.js';

describe('tracing is on', () => {
  it('only with an OTLP endpoint set, and neither the SDK disabled nor the exporter none', async () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_SERVICE_NAME: 'x' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    await expect(loadTracing({}, '1.0.0')).resolves.toBeUndefined();
  });
});

describe('a span at its end', () => {
  it('names the route under the base the request came in by', () => {
    expect(routeOf('/v1/pets/12?x=1', '/pets/{petId}')).toBe('/v1/pets/{petId}');
    expect(routeOf('/v1/pets', '/pets')).toBe('/v1/pets');
    expect(routeOf('/inventory/v2/items/a/b', '/items/{id}/b')).toBe('/inventory/v2/items/{id}/b');
  });

  it('is told the operation, the route, the workspace id (never the key) and the mode', () => {
    const told: SpanOutcome[] = [];
    const tracing = { end: (outcome: SpanOutcome) => void told.push(outcome) } as unknown as Tracing;
    const ends = spanEnds(tracing, { mode: 'stateful' } as Runtime, (key) => `ws-${key.length}`);
    const op = { operationId: 'getPet', path: '/pets/{petId}' };
    ends.v1({ url: '/v1/pets/3', status: 404, key: 'secret', op } as unknown as V1Exchange);
    ends.other({ status: 200, operation: 'getMode' } as AnsweredRequest);
    expect(told).toEqual([
      { status: 404, operation: 'getPet', route: '/v1/pets/{petId}', workspace: 'ws-6', mode: 'stateful' },
      { status: 200, operation: 'getMode', route: undefined, workspace: undefined, mode: 'stateful' },
    ]);
  });
});
