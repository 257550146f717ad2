/**
 * An engine composed from the product's own parts for a test of /v1 alone:
 * the dispatcher over the /v1 pipeline with the modes a test hands in, and
 * a control plane that owns no request. What the dispatcher announces is
 * kept for the test to read.
 */
import type { Config } from '../../src/config/load.js';
import type { ControlPlane } from '../../src/control/plane.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { AnsweredRequest, Interceptor, ModeHandler, V1Exchange } from '../../src/kernel/operation.js';
import { createV1Pipeline } from '../../src/v1/pipeline.js';
import type { Spec } from '../../src/openapi/spec.js';
import { createValidators } from '../../src/openapi/validate.js';

export interface TestEngine extends Engine {
  exchanges: V1Exchange[];
  answered: AnsweredRequest[];
}

/** A control plane with no operation: every request outside /v1 is the dispatcher's unknown path. */
const NO_CONTROL: ControlPlane = { handle: () => undefined };

export function engineOf(options: {
  config: Config;
  spec: Spec;
  stateful: ModeHandler;
  interceptors?: Interceptor[];
  onUnexpected?: (error: unknown) => void;
}): TestEngine {
  const { config, spec, onUnexpected } = options;
  const v1 = createV1Pipeline({
    config,
    spec,
    validators: createValidators(spec),
    runtime: { mode: 'stateful' },
    modes: { stateful: options.stateful },
    interceptors: options.interceptors,
    onUnexpected,
  });
  const exchanges: V1Exchange[] = [];
  const answered: AnsweredRequest[] = [];
  const events = { exchange: (e: V1Exchange) => exchanges.push(e), answered: (a: AnsweredRequest) => answered.push(a) };
  const engine = createEngine({ config, apis: [{ base: '/v1', pipeline: v1 }], control: NO_CONTROL, events, onUnexpected });
  return { handle: (request) => engine.handle(request), screen: (request) => engine.screen(request), serves: (url) => engine.serves(url), exchanges, answered };
}
