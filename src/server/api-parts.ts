/** The APIs of `--spec` as the engine takes them: each spec with its own Prism (example and dynamic modes, `Prefer`). */
import type { Config, Mode } from '../config/load.js';
import type { ApiParts } from '../engine/assemble.js';
import { createPreferInterceptor } from '../interceptors/prefer.js';
import { createPrismMode, createPrismRunner, type PrismRunner } from '../modes/prism/index.js';
import type { ServedSpec } from './served-specs.js';

/** An API's parts, with the Prism that answers its example and dynamic modes (loaded on first use). */
export function apiPartsOf(served: ServedSpec, config: Config, embeddedPrism: PrismRunner): ApiParts & { prism: PrismRunner } {
  const { spec } = served;
  const prism = served.embedded ? embeddedPrism : createPrismRunner([...spec.operations.keys()], served.source);
  return {
    base: served.base,
    spec,
    validators: served.validators,
    embedded: served.embedded,
    modes: {
      example: createPrismMode({ spec, prism, dynamic: false, seed: config.seed }),
      dynamic: createPrismMode({ spec, prism, dynamic: true, seed: config.seed }),
    } satisfies Partial<Record<Mode, unknown>>,
    prefer: createPreferInterceptor({ prism, seed: config.seed }),
    prism,
  };
}
