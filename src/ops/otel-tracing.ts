/**
 * Tracing with OpenTelemetry's SDK (optional peers, loaded by ops/tracing.ts
 * only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set): one server span per
 * request, continuing its W3C `traceparent`, the store's work as its
 * children, exported in batches over OTLP/HTTP. The exporter reads the
 * standard `OTEL_EXPORTER_OTLP_*` variables itself, the resource
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '@opentelemetry/api';
import type { SpanEnd, SpanOutcome, Tracing } from '../kernel/tracing.js';
import { pathOf } from './request-log.js';

/**
 * OpenTelemetry's packages, imported when tracing starts, not with this
 * module: a bundle that inlines it still loads none of them before.
 */
async function loadOtel() {
  const [api, core, exporter, resources, sdk, semconv] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  return { api, core, exporter, resources, sdk, semconv };
}

type Otel = Awaited<ReturnType<typeof loadOtel>>;

/** The service's name when `OTEL_SERVICE_NAME` does not say another. */
export const DEFAULT_SERVICE_NAME = 'petstore-sandbox';

/** The methods HTTP's semantic conventions name; any other is `_OTHER`. */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/** A request under way: its span, and its method (the span's name once its route is known). */
interface Current {
  span: Span;
  method: string;
  ended: boolean;
}

/** The catalogue code of a failure (a StoreFailure's), as `error.type`; else the error's name. */
function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[a-z_]+$/.test(code)) return code;
  return error instanceof Error ? error.name : 'error';
}

/** A request's span ended with what the request became: its route in its name, its status, operation, workspace and mode. */
function endRequest({ semconv, api }: Otel, current: Current, outcome: SpanOutcome): void {
  current.ended = true;
  const { span } = current;
  span.setAttribute(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.status);
  if (outcome.route !== undefined) {
    span.setAttribute(semconv.ATTR_HTTP_ROUTE, outcome.route);
    if (current.method !== '_OTHER') span.updateName(`${current.method} ${outcome.route}`);
  }
  if (outcome.operation !== undefined) span.setAttribute('petstore.operation', outcome.operation);
  if (outcome.workspace !== undefined) span.setAttribute('petstore.workspace', outcome.workspace);
  span.setAttribute('petstore.mode', outcome.mode);
  // A server's span fails on a 5xx only: a 4xx is the client's error, not the server's (HTTP's semantic conventions).
  if (outcome.status >= 500) {
    span.setAttribute(semconv.ATTR_ERROR_TYPE, String(outcome.status));
    span.setStatus({ code: api.SpanStatusCode.ERROR });
  }
  span.end();
}

/** The tracer provider: the resource (our name and version, then the variables'), a batching processor, the OTLP/HTTP exporter. */
function createProvider({ resources, sdk, exporter, semconv }: Otel, version: string) {
  const ours = resources.resourceFromAttributes({ [semconv.ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME, [semconv.ATTR_SERVICE_VERSION]: version });
  const resource = resources
    .defaultResource()
    .merge(ours)
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const processor = new sdk.BatchSpanProcessor({ exporter: new exporter.OTLPTraceExporter() });
  return new sdk.TracerProvider({ resource, spanProcessors: [processor] });
}

/**
 * The SDK's tracing: a tracer provider with a batching processor in front
 * of the OTLP/HTTP exporter, the request under way kept in an
 * `AsyncLocalStorage` so that the store's spans and proxy mode's
 * `traceparent` find it without being handed it.
 */
export async function createOtelTracing(version: string): Promise<Tracing> {
  const otel = await loadOtel();
  const { api, semconv } = otel;
  const provider = createProvider(otel, version);
  const tracer = provider.getTracer(DEFAULT_SERVICE_NAME, version);
  const propagator = new otel.core.W3CTraceContextPropagator();
  const storage = new AsyncLocalStorage<Current>();
  const under = (span: Span) => api.trace.setSpan(api.ROOT_CONTEXT, span);

  return {
    run(request, handle) {
      const parent = propagator.extract(api.ROOT_CONTEXT, request.headers, api.defaultTextMapGetter);
      const method = KNOWN_METHODS.has(request.method) ? request.method : '_OTHER';
      const attributes = { [semconv.ATTR_HTTP_REQUEST_METHOD]: method, [semconv.ATTR_URL_PATH]: pathOf(request.url) };
      const span = tracer.startSpan(method === '_OTHER' ? 'HTTP' : method, { kind: api.SpanKind.SERVER, attributes }, parent);
      return storage.run({ span, method, ended: false }, handle);
    },
    end(outcome) {
      const current = storage.getStore();
      if (current !== undefined && !current.ended) endRequest(otel, current, outcome);
    },
    child(name, attributes): SpanEnd | undefined {
      const current = storage.getStore();
      if (current === undefined) return undefined;
      const span = tracer.startSpan(name, { kind: api.SpanKind.INTERNAL, attributes }, under(current.span));
      return (failed, error) => {
        if (failed) {
          span.setAttribute(semconv.ATTR_ERROR_TYPE, errorType(error));
          span.setStatus({ code: api.SpanStatusCode.ERROR });
        }
        span.end();
      };
    },
    traceparent() {
      const current = storage.getStore();
      if (current === undefined) return undefined;
      const carrier: Record<string, string> = {};
      propagator.inject(under(current.span), carrier, api.defaultTextMapSetter);
      return carrier.traceparent;
    },
    async close(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()));
      // A collector out of reach must not hold the stop: what is not exported by then is given up.
      await Promise.race([provider.shutdown().catch(() => undefined), late]);
      clearTimeout(timer);
      storage.disable();
    },
  };
}
