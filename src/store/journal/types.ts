import type { Violation } from '../../kernel/operation.js';
import type { Issue } from '../../openapi/validate.js';
import type { BodyText } from './body.js';

/**
 * One request as captured: a few numbers and strings cut at capture, never
 * a reference to the request, its headers or a parsed body.
 */
export interface JournalRecord {
  /** When the response was sent, in ms since the epoch. */
  time: number;
  method: string;
  /** The request target as sent: the path and the query string. */
  url: string;
  operationId: string | null;
  status: number;
  durationMs: number;
  /** Undefined when no body was read. */
  request: BodyText | undefined;
  response: BodyText | undefined;
  /** What the exchange broke of the spec, when it had to be checked at capture (its text was cut); empty when nothing. */
  specIssues?: Issue[];
  /** What the exchange broke of the spec, in proxy mode only. */
  violations?: Violation[];
  /** For a request without a valid key: the credential it presented, masked (`maskedCredential`). */
  credential?: string;
}

/** One reason an exchange is not one the spec allows: an Issue of the response check, or of a request no operation matches. */
export interface SpecIssue extends Issue {
  in: 'operation' | 'status' | 'body' | 'header';
}

/** One request as the control plane shows it; in the journal of unauthenticated requests, with the `credential` it presented, masked. */
export interface JournalEntry {
  time: string;
  method: string;
  path: string;
  /** Query parameters as sent: strings, or arrays of strings when repeated. */
  query: Record<string, string | string[]>;
  operationId: string | null;
  status: number;
  durationMs: number;
  requestBody: unknown;
  responseBody: unknown;
  /**
   * Whether the interface allows this exchange: the request matched an
   * operation, and the answer is a status it documents with a valid body.
   */
  specValid: boolean;
  /** Why `specValid` is false (absent when it is true). */
  specIssues?: SpecIssue[];
  /** In proxy mode: what the request and the upstream's response broke of the spec. */
  violations?: Violation[];
  credential?: string;
}

/** What all journals hold together, against their budget. */
export interface JournalMemory {
  /** Bytes accounted to all journals' entries (see ENTRY_BYTES) and their coverage counts (COUNTS_BYTES, COUNT_BYTES), released with their journal. */
  bytes: number;
  budget: number;
  /** Entries in all journals. */
  kept: number;
  /** Entries dropped, oldest first, to stay within the budget since the sandbox started. */
  evicted: number;
}

/**
 * Called with each entry added to a journal it follows, and the entry's id:
 * increasing within a journal, the same whichever instance tells it (the
 * SSE `id` of `/journal/stream`).
 */
export type JournalListener = (entry: JournalEntry, id: number) => void;

/** An entry with its id, as a resumed stream replays it. */
export interface NumberedEntry {
  id: number;
  entry: JournalEntry;
}

/** The entries of a journal after an id, for a stream that resumes (`Last-Event-ID`). */
export interface JournalSince {
  /** The entries still kept whose id is above the one asked, oldest first. */
  entries: NumberedEntry[];
  /** Whether entries after that id may have been dropped (evicted, cut, cleared, or lost with a restart) before they could be replayed. */
  gap: boolean;
}

/**
 * What an exchange broke of the spec, from its operation (null when none
 * matched), its answer's status and body; empty when nothing. With
 * `bodyChecked`, the body is taken as valid (built from values already
 * checked) and only the status is judged.
 */
export type ResponseCheck = (operationId: string | null, status: number, body: unknown, bodyChecked?: boolean) => Issue[];
