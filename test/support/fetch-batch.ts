/**
 * A batch of fetches in a process of its own (started by `body-senders.ts`):
 * `node --import tsx fetch-batch.ts '{"url","headers","size","count","concurrency"}'`
 * sends `count` POSTs of `size` spaces, at most `concurrency` at once, and
 * prints what each read as a JSON array.
 */
import { inTurn, viaFetch } from './body-senders.js';

const { url, headers, size, count, concurrency } = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  headers: Record<string, string>;
  size: number;
  count: number;
  concurrency: number;
};
const body = Buffer.alloc(size, ' ');
const reads = await inTurn(count, concurrency, () => viaFetch({ url, headers, body, file: '' }));
process.stdout.write(JSON.stringify(reads));
