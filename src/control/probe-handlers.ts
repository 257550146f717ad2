import type { BackendKind } from '../backend.js';
import { ApiError } from '../http/errors.js';
import { TextAnswer, type ControlContext, type HandlerGroup } from './handlers.js';
import type { ControlResult } from './routes.js';

/** What the probes ask of the sandbox. */
export interface Probes {
  /** Whether the sandbox is shutting down (after SIGTERM): `/readyz` then answers 503. */
  draining(): boolean;
  /** The backend's kind; its `health()` rejects when storage does not answer. */
  backend: { readonly kind: BackendKind; health(): Promise<void> };
}

/** `/livez` and `/readyz`, the probes an orchestrator or a load balancer polls, and `/metrics`: outside `/__sandbox`. */
export function probeHandlers({ deps }: ControlContext): HandlerGroup<'getLiveness' | 'getReadiness' | 'getMetrics'> {
  return {
    getMetrics: async () => new TextAnswer(deps.metrics.contentType, await deps.metrics.text()),
    getLiveness: () => ({ status: 'ok' }),
    getReadiness: async (): Promise<ControlResult<'getReadiness'>> => {
      const { probes } = deps;
      if (probes.draining()) throw ApiError.of('service_unavailable', 'The sandbox is shutting down.');
      try {
        await probes.backend.health();
      } catch (error) {
        throw ApiError.of('service_unavailable', `The storage does not answer: ${(error as Error).message}`);
      }
      return { status: 'ready', store: probes.backend.kind };
    },
  };
}
