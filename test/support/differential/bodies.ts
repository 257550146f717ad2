/**
 * Request bodies of the differential that are not carried as bytes in a
 * case: a bulk body (a fixture set of tens of megabytes, a body just over the
 * control plane's 64 MiB) as a recipe that each way expands into the same
 * bytes, and the pieces a slow client sends a body in. Plain code with no
 * import, so that a page in Chromium runs the very same functions (the
 * browser way's bundle exposes them).
 */

/** A body as a recipe: `head`, then `count` items joined by `separator`, then `tail`. ASCII only: one character, one byte. */
export interface Bulk {
  head: string;
  /** Item templates, used in turn; `{i}` stands for the item's number, from 1. */
  items: readonly string[];
  count: number;
  separator: string;
  tail: string;
}

/** How a slow client sends a body: in `pieces` parts of about equal size, `pauseMs` apart, with no declared length. */
export interface Slow {
  pieces: number;
  pauseMs: number;
}

const itemOf = (bulk: Bulk, index: number): string => (bulk.items[index % bulk.items.length] ?? '').replaceAll('{i}', String(index + 1));

/** The recipe's text. */
export function expandBulk(bulk: Bulk): string {
  const parts: string[] = [];
  for (let i = 0; i < bulk.count; i++) parts.push(itemOf(bulk, i));
  return bulk.head + parts.join(bulk.separator) + bulk.tail;
}

/** The recipe's size in bytes, without making its text. */
export function bulkSize(bulk: Bulk): number {
  let size = bulk.head.length + bulk.tail.length + bulk.separator.length * Math.max(0, bulk.count - 1);
  for (let i = 0; i < bulk.count; i++) size += itemOf(bulk, i).length;
  return size;
}

/** `bytes` cut in `count` pieces of about equal size (the cuts fall anywhere, inside a UTF-8 character too). */
export function piecesOf(bytes: Uint8Array, count: number): Uint8Array[] {
  const size = Math.ceil(bytes.length / count);
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

/** `bytes` as a stream that yields its pieces `slow.pauseMs` apart, pulled as the reader reads (fetch sends it with `duplex: 'half'`). */
export function slowStream(bytes: Uint8Array, slow: Slow): ReadableStream<Uint8Array> {
  const pieces = piecesOf(bytes, slow.pieces);
  let next = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (next > 0) await new Promise((resolve) => setTimeout(resolve, slow.pauseMs));
        const piece = pieces[next++];
        if (piece === undefined) controller.close();
        else controller.enqueue(piece);
      },
    },
    { highWaterMark: 0 },
  );
}
