/**
 * Three clients that send POSTs with a large body and read their answers,
 * each its own way: Node's global fetch (undici), the system's curl
 * (`--data-binary @file`), and a bare node:net socket that writes the whole
 * request before it starts to read. Each request ends with the status and
 * body read, or with what went wrong instead (nothing rejects), so that a
 * batch of them can be counted. fetch runs in a process of its own, as a
 * client does: in the server's process its event loop takes turns with the
 * server's, and it reads the answer before the connection is reset.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseResponse } from './raw-http.js';

/** One request to send: where, with which headers, and its body as bytes and as a file (for curl). */
export interface BodyRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  file: string;
}

/** What a client read: a status and a body, or what went wrong before it could. */
export type Read = { status: number; text: string } | { error: string };

export type Sender = (request: BodyRequest) => Promise<Read>;

/** An error as one line, with its cause's code (fetch wraps EPIPE and ECONNRESET in `fetch failed`). */
function describe(error: unknown): string {
  const { message, cause } = error as Error & { cause?: Error & { code?: string } };
  return cause ? `${message}: ${cause.code ?? cause.message}` : message;
}

/** One fetch; run by `fetch-batch.ts` in a process of its own. */
export const viaFetch: Sender = async ({ url, headers, body }) => {
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    return { status: res.status, text: await res.text() };
  } catch (error) {
    return { error: describe(error) };
  }
};

const viaCurl: Sender = ({ url, headers, file }) =>
  new Promise((resolve) => {
    const named = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    const args = ['-sS', '--max-time', '60', '--data-binary', `@${file}`, ...named, '-w', '\n%{http_code}', url];
    execFile('curl', args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return resolve({ error: `curl exit ${String(error.code)}: ${stderr.trim()}` });
      const cut = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(cut + 1)), text: stdout.slice(0, cut) });
    });
  });

/** Writes the head and the whole body, and only once they are written starts to read the answer. */
const viaSocket: Sender = ({ url, headers, body }) =>
  new Promise((resolve) => {
    const { hostname, port, pathname } = new URL(url);
    const named = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    const head = `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${named.join('')}Content-Length: ${body.length}\r\n\r\n`;
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (read: Read) => {
      if (settled) return;
      settled = true;
      socket.end();
      resolve(read);
    };
    const read = () => (received.length > 0 ? 'part of the answer read' : 'no answer read');
    socket.on('error', (error) => settle({ error: `${describe(error)}, ${read()}` }));
    socket.on('close', () => settle({ error: `closed, ${read()}` }));
    socket.write(head);
    socket.write(body, (error) => {
      if (error) return;
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const response = parseResponse(received);
        if (response) settle({ status: response.status, text: response.body });
      });
    });
  });

/** `send` run `count` times, at most `concurrency` at once: what each read. */
export async function inTurn(count: number, concurrency: number, send: () => Promise<Read>): Promise<Read[]> {
  const reads: Read[] = [];
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      reads.push(await send());
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return reads;
}

const FETCH_BATCH = fileURLToPath(new URL('./fetch-batch.ts', import.meta.url));

/** The fetches of a batch, in a Node process of their own (tsx's loader), their body the same spaces of the same size. */
const fetchBatch = (request: BodyRequest, count: number, concurrency: number) =>
  new Promise<Read[]>((resolve, reject) => {
    const { url, headers, body } = request;
    const args = ['--import', 'tsx', FETCH_BATCH, JSON.stringify({ url, headers, size: body.length, count, concurrency })];
    execFile(process.execPath, args, { maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`fetch batch failed: ${stderr}`));
      else resolve(JSON.parse(stdout) as Read[]);
    });
  });

/** A batch of one kind of client: `count` requests, at most `concurrency` at once, and what each read. */
export type Batch = (request: BodyRequest, count: number, concurrency: number) => Promise<Read[]>;

export const CLIENTS: Record<'fetch' | 'curl' | 'socket', Batch> = {
  fetch: fetchBatch,
  curl: (request, count, concurrency) => inTurn(count, concurrency, () => viaCurl(request)),
  socket: (request, count, concurrency) => inTurn(count, concurrency, () => viaSocket(request)),
};

/** Why `read` is not the Error answer `status` with `code` (exactly {code, message, status}); undefined when it is. */
export function problemOf(read: Read, status: number, code: string): string | undefined {
  if ('error' in read) return read.error;
  if (read.status !== status) return `status ${read.status}: ${read.text.slice(0, 120)}`;
  try {
    const body = JSON.parse(read.text) as Record<string, unknown>;
    const keys = Object.keys(body).sort().join();
    if (keys === 'code,message,status' && body.code === code && body.status === status && typeof body.message === 'string' && body.message) return undefined;
  } catch {
    // Not JSON: reported below.
  }
  return `body ${read.text.slice(0, 120)}`;
}

/** How many of `reads` are the Error answer `status` with `code`, and a tally of what the others were. */
export function tally(reads: Read[], status: number, code: string): { ok: number; problems: Record<string, number> } {
  let ok = 0;
  const problems: Record<string, number> = {};
  for (const read of reads) {
    const problem = problemOf(read, status, code);
    if (problem === undefined) ok++;
    else problems[problem] = (problems[problem] ?? 0) + 1;
  }
  return { ok, problems };
}

/** The connections `server` has open, once they are all closed or `boundMs` has passed. */
export async function connectionsLeft(server: Server, boundMs: number): Promise<number> {
  const open = () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
  const deadline = performance.now() + boundMs;
  let count = await open();
  while (count > 0 && performance.now() < deadline) {
    await sleep(50);
    count = await open();
  }
  return count;
}
