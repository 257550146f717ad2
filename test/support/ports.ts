import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A port no one listens on now (the OS's pick, released): for programs that cannot be told port 0. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Waits until something accepts connections on `port`; fails after `timeoutMs`, or at once when `gone()` says why the program is gone. */
export async function waitForPort(port: number, timeoutMs: number, gone: () => string | false): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    const why = gone();
    if (why) throw new Error(why);
    if (Date.now() > deadline) throw new Error(`nothing listened on port ${port} within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}
