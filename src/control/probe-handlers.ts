import { ApiError } from '../kernel/errors.js';
import { TextAnswer, type ControlContext, type HandlerGroup } from './handler-types.js';
import type { ControlResult } from './routes.js';

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
