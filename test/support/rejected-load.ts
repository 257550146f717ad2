/** Load for the journal's memory tests: rejected POSTs, each with a key of its own (with --open-keys, a journal each). */
import { Agent, request } from 'node:http';

const PARALLEL = 8;

/** Sends `count` POSTs of `body` with the keys `<prefix>-0`, `<prefix>-1`, ... to `origin`; throws on any answer but 400. */
export async function sendRejected(origin: string, body: string, prefix: string, count: number): Promise<void> {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });
  const post = (key: string) =>
    new Promise<number>((resolve, reject) => {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      const req = request({ host: hostname, port, path: '/v1/pets', method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < count) {
          const status = await post(`${prefix}-${next++}`);
          if (status !== 400) throw new Error(`expected 400, got ${status}`);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
}
