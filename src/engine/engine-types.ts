/** The dispatcher's interfaces (engine.ts): what it is, what it is made of, and what it announces. */
import type { Config } from '../config/load.js';
import type { ControlPlane } from '../control/plane.js';
import type { AnsweredRequest, V1Exchange } from '../kernel/operation.js';
import type { EngineRequest, EngineResponse } from '../kernel/types.js';
import type { V1Pipeline } from '../v1/pipeline.js';
import type { Mode } from '../config/modes.js';
import type { Interceptor, ModeHandler } from '../kernel/operation.js';
import type { Spec } from '../openapi/spec.js';
import type { Validators } from '../openapi/validate.js';
import type { ExposureConfig } from './exposure-gate.js';
import type { Tracing } from '../kernel/tracing.js';

/** What the dispatcher announces, once per request, when its answer is made: the journal, the request log and the metrics listen. */
export interface EngineEvents {
  /** A /v1 request (but a preflight) and what it became. */
  exchange(exchange: V1Exchange): void;
  /** Any other request: the control plane, the probes, a preflight, an unknown path. */
  answered(answered: AnsweredRequest): void;
}

/** The engine: one function every way in calls, a request of plain values in, its answer out. Never rejects. */
export interface Engine {
  handle(request: EngineRequest): EngineResponse | Promise<EngineResponse>;
  /**
   * The exposure rule's refusal of a request (engine/exposure-gate.ts), or
   * undefined when it may be answered: what `handle` answers first, for a
   * way in that serves something of its own beside the engine (the
   * server's pages). Announces nothing.
   */
  screen(request: EngineRequest): EngineResponse | undefined;
  /** Whether a request target is the engine's to answer (its APIs' paths, the control plane's): a way in that shares its server leaves the rest alone. */
  serves(url: string): boolean;
}

/** An engine that can be closed: what every library sandbox closes first. */
export interface ClosableEngine extends Engine {
  /**
   * Closes the engine, once and for all: the waits handed its signal stop
   * (fault delays, live journal tails, which end), the answers still
   * pending and every later request are answered 503 `service_unavailable`.
   */
  close(): void;
}

/** An API the engine serves: the path it is served under (`/v1`), and its pipeline. */
export interface ServedApi {
  base: string;
  pipeline: V1Pipeline;
}

export interface EngineDeps {
  config: Pick<Config, 'corsOrigins'> & ExposureConfig;
  /** The APIs served, each under its own base path: the Pet Store at `/v1` unless specs were given (`--spec`). */
  apis: readonly ServedApi[];
  control: ControlPlane;
  events: EngineEvents;
  /** Hears a failure of a listener of `events`; the client's answer is not changed by it. */
  onUnexpected?: ((error: unknown, request: { method: string; url: string }) => void) | undefined;
  /** What `close()` aborts; the pipeline and the control plane hold its signal. Default one of the engine's own. */
  closing?: AbortController | undefined;
  /** Each request run as a span's work (ops/tracing.ts); none when tracing is off, and no request pays for it. */
  tracing?: Tracing | undefined;
}

/**
 * An API the sandbox serves from a spec: the Pet Store's own engine when the
 * spec is the embedded one (`embedded`), else state by convention
 * (`engine/conventional-api.ts`).
 */
export interface ApiParts {
  base: string;
  spec: Spec;
  validators: Validators;
  embedded: boolean;
  /** Handlers of the modes beyond `stateful` for this spec (Prism's, on Node). */
  modes: Partial<Record<Mode, ModeHandler>>;
  /** The `Prefer` interceptor of this spec. */
  prefer: Interceptor;
}
