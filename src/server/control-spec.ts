/** The control plane's spec read from its file: the ways in load it and hand it to the control engine. */
import { CONTROL_SPEC_FILE } from '../config/paths.js';
import { loadSpec } from '../openapi/load-spec.js';
import type { Spec } from '../openapi/spec.js';
import { checkRoutes } from '../control/request-checks.js';

/** Loads spec/sandbox-control.yaml, checked against the route table. */
export function loadControlSpec(file: string = CONTROL_SPEC_FILE): Spec {
  const spec = loadSpec(file);
  checkRoutes(spec);
  return spec;
}
