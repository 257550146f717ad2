/**
 * A bare HTTP/1.1 client on node:net: sends exactly the bytes it is given
 * (broken heads, lying Content-Length, duplicate headers) where fetch would
 * refuse or fix them, and parses the first response that comes back.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

export interface RawOptions {
  /**
   * Half-close after sending. Node's server then treats the request as
   * abandoned (it does not allow half-open connections), so an answer may
   * never come. Default false: wait for the answer.
   */
  end?: boolean;
  /** A HEAD request: the response has no body whatever its Content-Length. */
  head?: boolean;
  timeoutMs?: number;
}

/** The first complete response in `buffer`; undefined while it is incomplete; throws on bytes that are not HTTP. */
export function parseResponse(buffer: Buffer, head = false): RawResponse | undefined {
  // Interim answers (100 Continue) come before the real one: skip them.
  while (/^HTTP\/1\.[01] 1\d\d /.test(buffer.subarray(0, 13).toString('latin1'))) {
    const interimEnd = buffer.indexOf('\r\n\r\n');
    if (interimEnd < 0) return undefined;
    buffer = buffer.subarray(interimEnd + 4);
  }
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!status) throw new Error(`Not an HTTP response: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const length = head ? 0 : Number(headers['content-length'] ?? 0);
  const body = buffer.subarray(headEnd + 4);
  if (body.length < length) return undefined;
  return { status, headers, body: body.subarray(0, length).toString('utf8') };
}

/** Sends `request` to 127.0.0.1:`port`; resolves with the first response, or rejects (no answer, timeout). */
export function rawRequest(port: number, request: string | Buffer, options: RawOptions = {}): Promise<RawResponse> {
  const { end = false, head = false, timeoutMs = 10_000 } = options;
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (error: Error | undefined, response?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (response) resolve(response);
      else reject(error ?? new Error('no response'));
    };
    const timer = setTimeout(() => finish(new Error(`no response within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      try {
        const response = parseResponse(received, head);
        if (response) finish(undefined, response);
      } catch (error) {
        finish(error as Error);
      }
    });
    // The server may answer and close while the request is still being written (EPIPE, ECONNRESET): what it sent counts.
    const gone = (why: string) => {
      let response: RawResponse | undefined;
      try {
        response = parseResponse(received, head);
      } catch {
        response = undefined;
      }
      finish(new Error(`${why} before a complete response; got ${JSON.stringify(received.toString('latin1').slice(0, 200))}`), response);
    };
    socket.on('error', (error) => gone(`socket error (${error.message})`));
    socket.on('close', () => gone('connection closed'));
    socket.write(request, () => {
      if (end) socket.end();
    });
  });
}
