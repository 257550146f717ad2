/**
 * Runs `work` and calls `done` once its result settles (or at once when
 * `work` throws), passing the result or the error on: `try { return await
 * work() } finally { done() }` without the async frame and its await. A
 * create passes through this in its workspace's use, so it costs one
 * promise there, not two. `done` is told whether the work failed, and why.
 */
export function afterSettled<T>(work: () => T | Promise<T>, done: (failed: boolean, error?: unknown) => void): Promise<T> {
  let result: Promise<T>;
  try {
    result = Promise.resolve(work());
  } catch (error) {
    done(true, error);
    return Promise.reject(error as Error);
  }
  return result.then(
    (value) => {
      done(false);
      return value;
    },
    (error: unknown) => {
      done(true, error);
      throw error;
    },
  );
}
