import type { BoundPorts, WaitStrategy } from 'testcontainers';

/** The container as testcontainers hands it to a wait strategy (dockerode's), named without importing dockerode. */
type Container = Parameters<WaitStrategy['waitUntilReady']>[0];

/** Where the sandbox answers on the host: the published port's binding, or a port of the host's own network. */
export type ReadyAddress = (boundPorts: BoundPorts) => string;

/**
 * Waits until the sandbox's `/readyz` answers 200 (storage answers, not
 * draining). It reads the address through `address` rather than a bound port
 * alone, so it serves under host networking too, where Docker's API reports
 * no binding (testcontainers' own `Wait.forHttp` needs one). A container that
 * exits while it waits fails at once, with its last log lines: the sandbox's
 * refusal to start says why.
 */
export class ReadyzWaitStrategy implements WaitStrategy {
  private startupTimeoutMs = 60_000;
  private timeoutSet = false;

  constructor(private readonly address: ReadyAddress) {}

  async waitUntilReady(container: Container, boundPorts: BoundPorts): Promise<void> {
    const url = `${this.address(boundPorts)}/readyz`;
    const deadline = Date.now() + this.startupTimeoutMs;
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      const state = (await container.inspect()).State;
      if (!state.Running) throw new Error(`The sandbox's container exited (code ${state.ExitCode}) before ${url} answered 200:\n${await logTail(container)}`);
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
        if (res.status === 200) return;
        last = `${res.status} ${await res.text()}`;
      } catch (error) {
        last = String((error as Error).cause ?? error);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`${url} did not answer 200 within ${this.startupTimeoutMs} ms (last: ${last}):\n${await logTail(container)}`);
  }

  withStartupTimeout(startupTimeoutMs: number): this {
    this.startupTimeoutMs = startupTimeoutMs;
    this.timeoutSet = true;
    return this;
  }

  isStartupTimeoutSet(): boolean {
    return this.timeoutSet;
  }

  getStartupTimeout(): number {
    return this.startupTimeoutMs;
  }
}

/** The container's last log lines, stdout and stderr together (Docker's multiplexed frames stripped). */
async function logTail(container: Container): Promise<string> {
  try {
    const raw = await container.logs({ stdout: true, stderr: true, tail: 20, follow: false });
    return demultiplex(raw);
  } catch (error) {
    return `(logs unavailable: ${(error as Error).message})`;
  }
}

/** Docker's log stream without its 8-byte frame headers (present when the container has no TTY). */
function demultiplex(raw: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= raw.length && raw[at + 1] === 0 && raw[at + 2] === 0 && raw[at + 3] === 0) {
    const size = raw.readUInt32BE(at + 4);
    parts.push(raw.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return (at === 0 ? raw : Buffer.concat(parts)).toString('utf8').trim();
}
