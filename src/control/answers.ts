import { stringifyJson } from '../kernel/json.js';
import { toApiError } from '../kernel/error-exit.js';
import { utf8Length } from '../kernel/json.js';
import { ApiError } from '../kernel/errors.js';
import { JsonPieces, TextAnswer } from './handler-types.js';
import type { EngineResponse, EngineStream } from '../kernel/types.js';
import { EventStream, eventStreamText } from './event-stream.js';

/**
 * JSON text with `Content-Type: application/json` exactly as the spec
 * declares it (contract tools compare it literally; JSON is UTF-8 by
 * definition, so a charset would say nothing) and its Content-Length.
 */
function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): EngineResponse {
  const text = stringifyJson(value);
  return { status, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': utf8Length(text) }, body: text };
}

/** The spec's Error body `{code, message, status}`, with the error's own headers (WWW-Authenticate). */
const errorResponse = (error: ApiError): EngineResponse => jsonResponse(error.status, error.toBody(), { ...error.headers });

/**
 * Anything thrown as an Error body; an unexpected failure (not an
 * ApiError, not a storage failure) is a bare 500 and goes to `onUnexpected`.
 */
export function failureResponse(error: unknown, onUnexpected?: (error: unknown) => void): EngineResponse {
  const api = toApiError(error);
  if (api.status >= 500 && !(error instanceof ApiError)) onUnexpected?.(error);
  return errorResponse(api);
}

/** An export's pieces, each reported to `onUnexpected` when reading it fails midway (the head is sent: only the log can tell). */
async function* reported(pieces: Iterable<string> | AsyncIterable<string>, onUnexpected?: (error: unknown) => void): EngineStream {
  try {
    yield* pieces;
  } catch (error) {
    onUnexpected?.(error);
    throw error;
  }
}

/** What answering an operation needs beside its answer. */
export interface AnswerContext {
  /** A HEAD request: a stream is neither started nor followed. */
  head: boolean;
  signal: AbortSignal | undefined;
  /** Aborted when the sandbox closes: a live stream ends on it. */
  closing?: AbortSignal | undefined;
  /** A slot for a live stream (its client's, under the stream cap): how to give it back; throws the 503 when none is left. */
  takeSlot?: (() => () => void) | undefined;
  onUnexpected: ((error: unknown) => void) | undefined;
}

/**
 * An operation's answer as the engine's response: JSON text, JSON in
 * pieces (streamed, no Content-Length), a text answer with its own type
 * (the metrics), or a live event stream (`text/event-stream`).
 */
export function answerResponse(status: number, answer: unknown, context: AnswerContext): EngineResponse {
  if (answer instanceof EventStream) {
    const headers = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' };
    if (context.head) {
      answer.drop();
      return { status, headers, body: undefined };
    }
    let onEnd: (() => void) | undefined;
    try {
      onEnd = context.takeSlot?.();
    } catch (error) {
      answer.drop();
      throw error;
    }
    return { status, headers, body: eventStreamText(answer, context.signal, { closing: context.closing, onEnd }) };
  }
  if (answer instanceof JsonPieces)
    return { status, headers: { 'Content-Type': 'application/json' }, body: context.head ? undefined : reported(answer.pieces, context.onUnexpected) };
  if (answer instanceof TextAnswer)
    return { status, headers: { 'Content-Type': answer.contentType, 'Content-Length': utf8Length(answer.text) }, body: answer.text };
  return jsonResponse(status, answer);
}
