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
    const text = `${String(error)} ${String((error as { cause?: unknown }).cause)} ${(error as Error).message ?? ''}`;
    if (!/ECONNRESET|socket hang up|other side closed/.test(text)) throw error;
    return send();
  }
}
