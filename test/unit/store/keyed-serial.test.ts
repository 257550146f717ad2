import { describe, expect, it } from 'vitest';
import { KeyedSerial } from '../../../src/store/keyed-serial.js';

/** A promise and the function that resolves it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('KeyedSerial', () => {
  it('runs one key’s work in order, one at a time, even after a failure', async () => {
    const serial = new KeyedSerial();
    const seen: string[] = [];
    const first = gate();
    const a = serial.run('w', async () => {
      seen.push('a starts');
      await first.opened;
      seen.push('a ends');
      throw new Error('a failed');
    });
    const b = serial.run('w', async () => {
      seen.push('b runs');
      return 'b';
    });
    await Promise.resolve();
    expect(seen).toEqual(['a starts']);
    first.open();
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b');
    expect(seen).toEqual(['a starts', 'a ends', 'b runs']);
  });

  it('runs different keys side by side', async () => {
    const serial = new KeyedSerial();
    const held = gate();
    const slow = serial.run('one', () => held.opened.then(() => 'one'));
    await expect(serial.run('two', () => Promise.resolve('two'))).resolves.toBe('two');
    held.open();
    await expect(slow).resolves.toBe('one');
  });
});
