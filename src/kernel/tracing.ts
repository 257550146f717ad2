/**
 * Traces as the engine, the stores and proxy mode see them: an interface,
 * handed in like the logger and the metrics. On Node, with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` set, ops/otel-tracing.ts writes it with
 * OpenTelemetry's SDK; unset, there is none at all (undefined), so that a
 * request pays nothing for it.
 */
import type { EngineRequest } from './types.js';

/** What a request became, as its span records it when it ends. */
export interface SpanOutcome {
  status: number;
  /** The spec operation (`getPetById`) or control operation answered, if one was. */
  operation: string | undefined;
  /** The route's template under the API's base (`/v1/pets/{petId}`), if the request matched one. */
  route: string | undefined;
  /** The workspace id of the accepted key (a keyed hash, never the key). */
  workspace: string | undefined;
  mode: string;
}

/** Ends a child span; `failed` with `error` when its work failed. */
export type SpanEnd = (failed?: boolean, error?: unknown) => void;

export interface Tracing {
  /**
   * Runs `handle` as the work of a new server span for `request`, the child
   * of the request's W3C `traceparent` when it carries a valid one: what
   * `handle` calls, and what its promises call later, is that request's.
   */
  run<T>(request: EngineRequest, handle: () => T): T;
  /** Ends the span of the request under way (the one `run` began), with what it became; nothing outside a request. */
  end(outcome: SpanOutcome): void;
  /** Begins a child span of the request under way, for store work; undefined outside a request. */
  child(name: string, attributes: Record<string, string>): SpanEnd | undefined;
  /** The `traceparent` header of the request under way's span, for proxy mode's upstream; undefined outside a request. */
  traceparent(): string | undefined;
  /** Exports the spans still held and stops, within `timeoutMs`. */
  close(timeoutMs: number): Promise<void>;
}
