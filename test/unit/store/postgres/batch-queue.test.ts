import { describe, expect, it } from 'vitest';
import { BatchQueue, rejectEach } from '../../../../src/store/postgres/batch-queue.js';

interface Item {
  n: number;
  resolve(value: number): void;
  reject(error: unknown): void;
}

function queueOf(run: (batch: Item[]) => Promise<void>) {
  const queue = new BatchQueue<Item>(run, { failed: rejectEach });
  return (n: number) => new Promise<number>((resolve, reject) => queue.push({ n, resolve, reject }));
}

describe('BatchQueue', () => {
  it('items sent in one turn of the event loop go together', async () => {
    const batches: number[][] = [];
    const add = queueOf(async (batch) => {
      batches.push(batch.map((i) => i.n));
      await Promise.resolve();
      for (const item of batch) item.resolve(item.n);
    });
    expect(await Promise.all([1, 2, 3].map(add))).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('runs the first item in the next turn and the items that arrive meanwhile together, in order', async () => {
    const batches: number[][] = [];
    let running!: () => void;
    const firstRuns = new Promise<void>((resolve) => (running = resolve));
    const add = queueOf(async (batch) => {
      batches.push(batch.map((i) => i.n));
      running();
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const item of batch) item.resolve(item.n * 10);
    });
    const first = add(1);
    // Once the first batch runs, what arrives waits for the next one. (Waited for as such: a timer of 1 ms could fire
    // before the queue's own next turn on a loaded machine, and the items then joined the first batch.)
    await firstRuns;
    const answers = await Promise.all([first, ...[2, 3, 4].map(add)]);
    expect(answers).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(await add(5)).toBe(50);
    expect(batches.at(-1)).toEqual([5]);
  });

  it('a batch that throws rejects each of its items, and the queue goes on', async () => {
    const add = queueOf(async (batch) => {
      await Promise.resolve();
      if (batch.some((i) => i.n < 0)) throw new Error('refused');
      for (const item of batch) item.resolve(item.n);
    });
    const [bad, good] = await Promise.allSettled([add(-1), add(2)]);
    expect(bad).toMatchObject({ status: 'rejected', reason: new Error('refused') });
    expect(good).toMatchObject({ status: 'rejected', reason: new Error('refused') });
    expect(await add(3)).toBe(3);
  });

  it('idle() resolves once every item pushed so far has run, those pushed while it waited included; failures go to `failed`', async () => {
    const ran: number[] = [];
    const failures: number[][] = [];
    const queue: BatchQueue<number> = new BatchQueue<number>(
      async (batch) => {
        // Items pushed while a batch runs wait for the next one.
        if (batch.includes(1)) [-1, 3].forEach((n) => queue.push(n));
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (batch.includes(-1)) throw new Error('refused');
        ran.push(...batch);
      },
      { gatherMs: 1, failed: (_, batch) => void failures.push(batch) },
    );
    await queue.idle();
    queue.push(1);
    queue.push(2);
    expect(queue.waiting).toBe(2);
    await queue.idle();
    expect(queue.waiting).toBe(0);
    expect(ran).toEqual([1, 2]);
    expect(failures).toEqual([[-1, 3]]);
  });
});
