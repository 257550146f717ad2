import { describe, expect, it } from 'vitest';
import { connectionCap, openFileLimit, RESERVED_DESCRIPTORS } from '../../src/http/file-limit.js';

const limits = (soft: string, hard: string) =>
  `Limit                     Soft Limit           Hard Limit           Units     \nMax processes             63445                63445                processes \nMax open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files     \n`;

describe('openFileLimit', () => {
  it.each([
    [limits('1024', '4096'), 1024],
    [limits('unlimited', 'unlimited'), undefined],
    ['', undefined],
  ])('reads the soft limit of /proc/self/limits', (text, expected) => {
    expect(openFileLimit(() => text)).toBe(expected);
  });

  it('is undefined where there is no such file', () => {
    expect(
      openFileLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });
});

describe('connectionCap', () => {
  it('keeps the wanted cap when the limit leaves room for it', () => {
    expect(connectionCap(1000, 1_048_576)).toEqual({ cap: 1000 });
    expect(connectionCap(1000, undefined)).toEqual({ cap: 1000 });
    expect(connectionCap(50, 256)).toEqual({ cap: 50 });
  });

  it('lowers it to leave the reserved descriptors free, and says so', () => {
    const { cap, note } = connectionCap(1000, 1024);
    expect(cap).toBe(1024 - RESERVED_DESCRIPTORS);
    expect(note).toBe(`at most ${cap} connections, not 1000: the open-file limit is 1024 (raise it with ulimit -n, or lower --max-connections)`);
  });

  it('never below one connection', () => {
    expect(connectionCap(1000, 10).cap).toBe(1);
  });
});
