/**
 * Runs `work` and calls `done` once its result settles (or at once when
 * `work` throws), passing the result on: `try { return await work() }
 * finally { done() }` without the async frame and its await. A create
 * passes through this once, so it costs one promise here, not two.
 */
export function afterSettled<T>(work: () => T | Promise<T>, done: () => void): Promise<T> {
  let result: Promise<T>;
  try {
    result = Promise.resolve(work());
  } catch (error) {
    done();
    return Promise.reject(error as Error);
  }
  return result.then(
    (value) => {
      done();
      return value;
    },
    (error: unknown) => {
      done();
      throw error;
    },
  );
}
