import type { JournalRecord } from '../journal/types.js';
import { ADD_COUNTS } from './journal-batch.js';
import { JOURNAL_CHANNEL } from './journal-tail.js';

/**
 * How many entries past its newest `size` a batch cuts from a journal
 * beyond the batch's own count. A journal holds `size` entries after each
 * batch, but can hold more for a while: two instances' batches cutting at
 * once, or an instance started with a smaller --journal-size. The cut scans
 * back from the newest entry and stops after the entries it may remove, so
 * it never walks the dead index entries of the rows cut before (a scan from
 * the oldest end walked all of them, and cost four times as much).
 */
const CUT_SLACK = 64;

/**
 * The most rows of a prepared batch statement. A larger batch (a backlog
 * after the database was out of reach) runs unnamed, its text built for it
 * and dropped after: a prepared statement stays in each connection's
 * memory, and in this process's, for as long as they live.
 */
const MAX_PREPARED_ROWS = 256;

/** The journal's writes take their seqs one batch at a time, across instances ("petstore journal", a 32-bit advisory lock key). */
const JOURNAL_LOCK = 0x5e7_10a1;

/** A batch's row slots: the next power of two up to MAX_PREPARED_ROWS, so that a few prepared statements serve those sizes; its own count above. */
export const slotsFor = (rows: number): number => (rows > MAX_PREPARED_ROWS ? rows : 2 ** Math.ceil(Math.log2(Math.max(rows, 1))));

/** The statement of a batch of `slots` rows, written once per prepared size. */
const texts = new Map<number, string>();
function textFor(slots: number): string {
  const text = texts.get(slots) ?? statement(slots);
  if (slots <= MAX_PREPARED_ROWS) texts.set(slots, text);
  return text;
}

function statement(slots: number): string {
  const rowsSql = Array.from({ length: slots }, (_, i) => `($${3 * i + 5}, $${3 * i + 6}, $${3 * i + 7}::int)`).join(', ');
  // Slots past the batch's rows hold nulls, and `b` leaves them out.
  // The lock is taken before any row is inserted (b reads it) and held to COMMIT: batches of every instance take their
  // seqs in turn, so they commit in seq order, and a tail that read up to a seq never meets a lower one later.
  return `WITH l AS MATERIALIZED (SELECT pg_advisory_xact_lock(${JOURNAL_LOCK})),
            v (workspace, record, bytes) AS (VALUES ${rowsSql}),
            b AS (SELECT v.* FROM v, l WHERE workspace IS NOT NULL),
            ins AS (INSERT INTO petstore_journal (workspace, record, bytes, instance) SELECT workspace, record, bytes, $2 FROM b RETURNING bytes, seq),
            n AS (SELECT workspace, count(*) AS n FROM b GROUP BY workspace),
            c AS (${ADD_COUNTS('$4')}),
            gone AS (
              DELETE FROM petstore_journal WHERE seq = ANY (ARRAY(
                SELECT k.seq FROM n CROSS JOIN LATERAL (
                  SELECT seq FROM petstore_journal k WHERE k.workspace = n.workspace
                  ORDER BY seq DESC OFFSET greatest($1::int - n.n, 0) LIMIT n.n + ${CUT_SLACK}) k))
              RETURNING bytes)
       UPDATE petstore_journal_total SET bytes = bytes + (SELECT coalesce(sum(bytes), 0) FROM ins) - (SELECT coalesce(sum(bytes), 0) FROM gone)
       RETURNING bytes, (SELECT array_agg(seq ORDER BY seq)::text[] FROM ins) AS seqs, (SELECT pg_notify('${JOURNAL_CHANNEL}', $3)) IS NULL AS notified,
         set_config('synchronous_commit', 'off', true) AS async_commit`;
}

/** Response texts at least this long have their JSON escaping remembered (`recordJson`). */
const MEMO_CHARS = 512;

/** The last long response text escaped, with its JSON: under a read load most entries answer the same page. */
let lastText: { text: string; json: string } | undefined;

/**
 * A record's JSON, as `JSON.stringify` writes it but with the response
 * last: a long response text is escaped once while entries repeat it
 * (comparing two equal strings costs far less than escaping one again).
 */
export function recordJson(record: JournalRecord): string {
  const body = record.response;
  if (body === undefined || body.text.length < MEMO_CHARS) return JSON.stringify(record);
  if (lastText?.text !== body.text) lastText = { text: body.text, json: JSON.stringify(body.text) };
  const head = JSON.stringify({ ...record, response: undefined });
  const rest = JSON.stringify({ ...body, text: undefined });
  return `${head.slice(0, -1)},"response":{"text":${lastText.json}${rest === '{}' ? '' : `,${rest.slice(1, -1)}`}}}`;
}

/**
 * One statement for a journal batch: the entries inserted (their seqs
 * returned in order: a batch's rows are given theirs as the batch lists
 * them, by one insert), each journal they
 * join cut to its newest `size` (counting the batch), the coverage counts
 * added, and the running total of bytes moved by both; the notice tells
 * other instances' live tails (JournalTail) on COMMIT, which waits for no
flush of the write-ahead log (the entries are unlogged, gone after a crash of
PostgreSQL anyway; such a crash may also lose the last moment's coverage
counts). Each record is its own
 * parameter, sent as it is, where an array or a JSON document would be
 * escaped and parsed again, and records hold whole bodies. Up to
 * MAX_PREPARED_ROWS, the rows are padded to a power of two and the
 * statement is named by that size: it is parsed and planned once per
 * connection and size, not once per batch. (At most 10,000 rows of three
 * parameters, the journal's pending entries: within the protocol's 65,535.)
 */
export function journalInsert(
  kept: readonly { workspace: string; record: JournalRecord; bytes: number }[],
  head: readonly [size: number, instance: string, notice: string, counts: string],
): { name?: string; text: string; values: unknown[] } {
  const slots = slotsFor(kept.length);
  const values: unknown[] = [...head];
  for (const b of kept) values.push(b.workspace, recordJson(b.record), b.bytes);
  for (let i = kept.length; i < slots; i++) values.push(null, null, null);
  const text = textFor(slots);
  return slots > MAX_PREPARED_ROWS ? { text, values } : { name: `petstore-journal-${slots}`, text, values };
}
