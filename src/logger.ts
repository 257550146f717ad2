/** Where the sandbox reports what it does not answer to a client: start-up, repairs, unexpected failures. */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export const silentLogger: Logger = { info: () => undefined, error: () => undefined };
