import { describe, expect, it } from 'vitest';
import { CHECKPOINT_NAME, headLine, refusals, saveBudget } from '../../../src/store/checkpoint-rules.js';

const limits = { count: 2, bytes: 1_000 };
const held = [
  { name: 'a', bytes: 300 },
  { name: 'b', bytes: 200 },
];

/** What `work` throws, as code and message. */
function refused(work: () => unknown): { code: string; message: string } {
  try {
    work();
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error('nothing was refused');
}

describe('the checkpoint rules every store keeps alike', () => {
  it('a new checkpoint may take the limit less what the others take', () => {
    expect(saveBudget([], 'a', false, limits)).toBe(1_000);
    expect(saveBudget([{ name: 'a', bytes: 300 }], 'b', false, limits)).toBe(700);
  });

  it('an overwrite does not count the checkpoint it replaces, nor count as one more', () => {
    expect(saveBudget(held, 'a', true, limits)).toBe(800);
  });

  it('a taken name without overwrite is a conflict', () => {
    expect(refused(() => saveBudget(held, 'a', false, limits))).toEqual({
      code: 'conflict',
      message: `A checkpoint 'a' exists in this workspace; send "overwrite": true to replace it.`,
    });
  });

  it('one more than --checkpoint-count is refused, nothing saved', () => {
    expect(refused(() => saveBudget(held, 'c', false, limits))).toEqual({
      code: 'quota_exceeded',
      message: 'The workspace holds 2 checkpoints, its limit (--checkpoint-count). Delete one first. Nothing was saved.',
    });
  });

  it('the bytes refusal never names a negative budget; names and head lines follow the one rule', () => {
    expect(refusals.bytes(-5).message).toBe(
      "The workspace's checkpoints would take more than 0 more bytes (--checkpoint-bytes). Delete one first. Nothing was saved.",
    );
    expect(CHECKPOINT_NAME.test('nightly-1.2_x')).toBe(true);
    expect(CHECKPOINT_NAME.test('.hidden')).toBe(false);
    expect(CHECKPOINT_NAME.test('a/b')).toBe(false);
    expect(CHECKPOINT_NAME.test('x'.repeat(65))).toBe(false);
    expect(headLine({ checkpoint: 1, savedAt: 't', count: 2, nextId: 3 })).toBe('{"checkpoint":1,"savedAt":"t","count":2,"nextId":3}\n');
  });
});
