import { createServer } from 'node:net';

/** Names of this machine's loopback, as testcontainers reports Docker's host. */
export const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/** A port free on the host's loopback now (host networking: the sandbox takes it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
