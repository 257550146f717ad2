import { describe, expect, it } from 'vitest';
import { descriptorCaps, openFileLimit, RESERVED_DESCRIPTORS } from '../../src/server/file-limit.js';

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

describe('descriptorCaps', () => {
  const wanted = { connections: 1000, workspaces: 1000 };

  it('keeps the wanted caps when the limit leaves room for both', () => {
    expect(descriptorCaps(wanted, 1_048_576)).toEqual({ ...wanted, notes: [] });
    expect(descriptorCaps(wanted, undefined)).toEqual({ ...wanted, notes: [] });
    expect(descriptorCaps({ connections: 50, workspaces: 20 }, 256)).toEqual({ connections: 50, workspaces: 20, notes: [] });
  });

  it('shares what is left after the reserve between connections and workspaces, and says which it lowered', () => {
    const caps = descriptorCaps(wanted, 1024);
    const half = (1024 - RESERVED_DESCRIPTORS) / 2;
    expect([caps.connections, caps.workspaces]).toEqual([half, half]);
    expect(caps.notes).toEqual([
      `at most ${half} connections, not 1000: the open-file limit is 1024 (raise it with ulimit -n, or lower --max-connections)`,
      `at most ${half} open workspaces, not 1000: the open-file limit is 1024 (raise it with ulimit -n, or lower --max-workspaces)`,
    ]);
    expect(descriptorCaps({ connections: 50, workspaces: 1000 }, 256)).toMatchObject({ connections: 50, workspaces: 96 });
  });

  it('never below one of each', () => {
    expect(descriptorCaps(wanted, 10)).toMatchObject({ connections: 1, workspaces: 1 });
  });
});
