/** Group commit: batches of waiting items, tasks alone and in order, failures confined to their batch. */
import { describe, expect, it } from 'vitest';
import { WriteQueue } from '../../../src/store/file/commit-log.js';

/** A queue whose commits are recorded; items named `fail*` make their batch fail. */
function recordingQueue(maxBatchBytes?: number) {
  const batches: string[][] = [];
  const queue = new WriteQueue<string, string>(
    async (items) => {
      batches.push(items);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (items.some((i) => i.startsWith('fail'))) throw new Error(`batch ${items.join(',')} failed`);
      return items.map((i) => i.toUpperCase());
    },
    (item) => item.length,
    maxBatchBytes,
  );
  return { queue, batches };
}

describe('WriteQueue', () => {
  it('commits items waiting together as one batch, each resolving with its result', async () => {
    const { queue, batches } = recordingQueue();
    const first = queue.add('a');
    const rest = [queue.add('b'), queue.add('c'), queue.add('d')];
    expect(await Promise.all([first, ...rest])).toEqual(['A', 'B', 'C', 'D']);
    // The first starts a batch alone; those that arrived while it ran go together.
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('rejects every item of a failed batch and nothing else', async () => {
    const { queue } = recordingQueue();
    const results = await Promise.allSettled([queue.add('ok1'), queue.add('fail'), queue.add('x')]);
    const later = await queue.add('ok2');
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(later).toBe('OK2');
  });

  it('runs a task alone, after what was asked before it and before what comes after', async () => {
    const { queue, batches } = recordingQueue();
    const order: string[] = [];
    const a = queue.add('a').then(() => order.push('a'));
    const b = queue.add('b').then(() => order.push('b'));
    const task = queue.exclusive(async () => {
      order.push(`task saw ${batches.flat().join('')}`);
      return 42;
    });
    const c = queue.add('c').then(() => order.push('c'));
    await Promise.all([a, b, c]);
    expect(await task).toBe(42);
    expect(order).toEqual(['a', 'b', 'task saw ab', 'c']);
  });

  it('rejects a task that throws at once, and keeps going', async () => {
    const { queue } = recordingQueue();
    await expect(
      queue.exclusive(() => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await queue.add('next')).toBe('NEXT');
  });

  it('splits batches at maxBatchBytes, never below one item', async () => {
    const { queue, batches } = recordingQueue(4);
    await queue.add('x');
    await Promise.all(['aa', 'bb', 'ccccc', 'd'].map((i) => queue.add(i)));
    expect(batches.slice(1)).toEqual([['aa', 'bb'], ['ccccc'], ['d']]);
  });

  it('idle waits for everything asked so far; busy says whether anything runs', async () => {
    const { queue } = recordingQueue();
    expect(queue.busy).toBe(false);
    const done: string[] = [];
    void queue.add('a').then((r) => done.push(r));
    expect(queue.busy).toBe(true);
    await queue.idle();
    expect(done).toEqual(['A']);
    expect(queue.busy).toBe(false);
  });
});
