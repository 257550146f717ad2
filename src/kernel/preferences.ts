import parsePreferHeader from 'parse-prefer-header';
import { ApiError } from './errors.js';
import { echo } from './echo.js';
import type { OperationRequest } from './operation.js';

/**
 * The preferences Prism understands (`code`, `example`, `dynamic`, `seed`),
 * read from a request's `Prefer` header. Other preferences (`return=minimal`,
 * `wait=5`, ...) are ignored, as RFC 7240 asks of preferences a server does
 * not support.
 */
export interface Preferences {
  /** A documented status of the operation to answer with. */
  code?: number;
  /** The name of an example of the chosen response. */
  example?: string;
  /** Generate the body from the schema instead of taking an example. */
  dynamic?: boolean;
  /** Seed of the generator for a dynamic body. */
  seed?: string;
}

/** The statuses the spec documents for the operation, ascending. */
export function documentedCodes(request: OperationRequest): number[] {
  return [...request.op.responses.keys()].sort((a, b) => a - b);
}

const invalid = (message: string) => ApiError.of('invalid_request', message);

/**
 * Reads and checks the `Prefer` header. The same rules hold in every mode,
 * so a preference the operation cannot honour (an undocumented status, a
 * malformed value) is a 400 Error naming what it can do, never Prism's own
 * problem+json nor a silently ignored preference.
 */
export function readPreferences(request: OperationRequest): Preferences {
  const raw = parsePreferHeader(request.headers.prefer);
  const preferences: Preferences = {};
  if (raw.code !== undefined) {
    const codes = documentedCodes(request);
    const code = typeof raw.code === 'string' && /^\d{3}$/.test(raw.code) ? Number(raw.code) : undefined;
    if (code === undefined || !codes.includes(code)) {
      throw invalid(`Prefer: code=${String(raw.code)} is not a documented status of ${request.op.operationId}; documented codes: ${codes.join(', ')}.`);
    }
    preferences.code = code;
  }
  if (raw.example !== undefined) {
    if (typeof raw.example !== 'string') throw invalid('Prefer: example needs the name of an example, e.g. Prefer: example=dog.');
    preferences.example = raw.example;
  }
  if (raw.dynamic !== undefined) {
    // A bare `Prefer: dynamic` is a preference without a value: RFC 7240 reads it as on.
    if (raw.dynamic !== true && raw.dynamic !== 'true' && raw.dynamic !== 'false')
      throw invalid(`Prefer: dynamic must be true or false, got ${echo(String(raw.dynamic))}.`);
    preferences.dynamic = raw.dynamic !== 'false';
  }
  if (raw.seed !== undefined) {
    if (typeof raw.seed !== 'string') throw invalid('Prefer: seed needs a value, e.g. Prefer: dynamic=true, seed=42.');
    preferences.seed = raw.seed;
  }
  return preferences;
}
