/**
 * What each request's span is told when its answer is made (kernel/tracing.ts):
 * the route, the operation, the workspace's id and the mode. Apart from
 * ops/tracing.ts, which loads OpenTelemetry: the reporting imports this in a
 * browser too, where no tracing is ever loaded.
 */
import type { AnsweredRequest, Runtime, V1Exchange } from '../kernel/operation.js';
import type { Tracing } from '../kernel/tracing.js';

/**
 * The route of a /v1 exchange: its operation's path template under the
 * API's base, the base being the target's path less as many segments as
 * the template has (`/v1/pets/12` and `/pets/{petId}`: `/v1/pets/{petId}`).
 */
export function routeOf(url: string, template: string): string {
  const q = url.indexOf('?');
  const segments = (q < 0 ? url : url.slice(0, q)).split('/');
  const base = segments.slice(0, segments.length - (template.split('/').length - 1)).join('/');
  return `${base}${template}`;
}

/** What ends each request's span: a /v1 exchange's (its route, operation and workspace) and any other answer's. */
export function spanEnds(tracing: Tracing, runtime: Runtime, workspaceOf: (key: string) => string) {
  return {
    v1(e: V1Exchange): void {
      tracing.end({
        status: e.status,
        operation: e.op?.operationId,
        route: e.op && routeOf(e.url, e.op.path),
        workspace: e.key === undefined ? undefined : workspaceOf(e.key),
        mode: runtime.mode,
      });
    },
    other(e: AnsweredRequest): void {
      tracing.end({ status: e.status, operation: e.operation, route: undefined, workspace: undefined, mode: runtime.mode });
    },
  };
}
