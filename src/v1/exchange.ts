import type { ServerResponse } from 'node:http';
import type { Violation } from '../operation.js';
import type { OperationSpec } from '../openapi/spec.js';

/** What a /v1 response carries until it is reported (journal, metrics). */
export interface Exchange {
  /** When tracking started; absent on a response that is not tracked (Express's own `locals`). */
  start: number;
  /** `X-Request-Id`: the client's, or one made for the request. */
  requestId: string;
  op?: OperationSpec;
  key?: string;
  /** The response body as sent, and its JSON text. */
  body?: unknown;
  text?: string;
  /** The request body's bytes as read (a Content-Encoding undone; as sent, in proxy mode). */
  bytes?: Buffer;
  /** In proxy mode, what the request broke of the spec: reported with an answer of the sandbox's own too (a 502). */
  violations?: Violation[];
}

/** A response with its exchange; Express's `res.locals` slot, or the same on a bare response. */
export type Tracked = ServerResponse & { locals: Exchange };

/** The exchange a response carries, if it is tracked. */
export const exchangeOf = (res: ServerResponse): Partial<Exchange> | undefined => (res as Partial<Tracked>).locals;
