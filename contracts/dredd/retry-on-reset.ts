/** Whether a request failed because its connection was reset or closed before any answer (fetch wraps the cause). */
export function resetBeforeAnswer(error: unknown): boolean {
  const text = `${String(error)} ${String((error as { cause?: unknown }).cause)} ${(error as Error).message ?? ''}`;
  return /ECONNRESET|socket hang up|other side closed/.test(text);
}

/**
 * Runs a request again once when the connection was reset before any answer:
 * a kept-alive connection the sandbox closed while idle (after its
 * keep-alive timeout, while Dredd ran other transactions) may be picked for
 * the next request just as it closes, and that request never reached it.
 */
export async function retriedOnReset<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!resetBeforeAnswer(error)) throw error;
    return send();
  }
}
