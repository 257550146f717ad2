/** A spec read from its file (through its cached JSON copy) and indexed: the ways in load the specs and hand them to the engine. */
import { SPEC_FILE } from '../config/paths.js';
import { readSpecDocument } from './spec-cache.js';
import { indexSpec, type Spec } from './spec.js';

/** Reads and indexes an OpenAPI 3.0 document by `operationId` (the interface's unless told). */
export function loadSpec(file: string = SPEC_FILE): Spec {
  return indexSpec(file, readSpecDocument(file));
}
