/** The .cpuprofile reader (test/bench/cpu-profile.ts) on a hand-made profile: self and total attribution, recursion, idle samples, groups. */
import { describe, expect, it } from 'vitest';
import { groupOf, summarize, type CpuProfile, type CpuProfileNode } from '../../bench/cpu-profile.js';
import { renderProfile } from '../../bench/profile-table.js';

const ROOT = '/srv/petstore';
const node = (id: number, functionName: string, url: string, children: number[] = [], lineNumber = 0): CpuProfileNode => ({
  id,
  callFrame: { functionName, url, lineNumber, columnNumber: 0, scriptId: '0' } as CpuProfileNode['callFrame'],
  children,
});

/**
 * (root) -> serve (sandbox) -> stringify (native), and serve -> log (pino) -> serve (recursing) -> write (node);
 * (root) -> (garbage collector); (root) -> (idle).
 */
const PROFILE: CpuProfile = {
  nodes: [
    node(1, '(root)', '', [2, 6, 7]),
    node(2, 'serve', `file://${ROOT}/dist/chunks/chunk-A.js`, [3, 4], 9),
    node(3, 'stringify', ''),
    node(4, 'log', `file://${ROOT}/node_modules/pino/lib/tools.js`, [5]),
    node(5, 'serve', `file://${ROOT}/dist/chunks/chunk-A.js`, [8], 9),
    node(6, '(garbage collector)', ''),
    node(7, '(idle)', ''),
    node(8, 'write', 'node:net'),
  ],
  startTime: 0,
  endTime: 10,
  // serve 2, stringify 3, log 1, inner serve 1, write 1, gc 2, idle 5: 10 busy samples.
  samples: [2, 2, 3, 3, 3, 4, 5, 8, 6, 6, 7, 7, 7, 7, 7],
  timeDeltas: Array.from({ length: 15 }, () => 1),
};

const share = (name: string) => summarize(PROFILE, ROOT).frames.find((f) => f.name === name);

describe('summarize', () => {
  it('counts busy samples only, leaving (idle) and (root) out', () => {
    const summary = summarize(PROFILE, ROOT);
    expect(summary.busy).toBe(10);
    expect(summary.frames.map((f) => f.name)).not.toContain('(idle)');
    expect(summary.frames.map((f) => f.name)).not.toContain('(root)');
  });

  it('gives self time to the top frame and total time to every frame on the stack, once per sample however it recurs', () => {
    expect(share('serve')).toMatchObject({ self: 3, total: 8, location: 'dist/chunks/chunk-A.js:10', group: 'sandbox' });
    expect(share('log')).toMatchObject({ self: 1, total: 3, group: 'pino' });
    expect(share('stringify')).toMatchObject({ self: 3, total: 3, location: '', group: 'native' });
    expect(share('write')).toMatchObject({ self: 1, total: 1, location: 'node:net:1', group: 'node' });
    expect(share('(garbage collector)')).toMatchObject({ self: 2, total: 2, group: 'v8' });
  });

  it('sums self time per group', () => {
    expect(Object.fromEntries(summarize(PROFILE, ROOT).groups)).toEqual({ sandbox: 3, native: 3, pino: 1, node: 1, v8: 2 });
  });

  it('falls back on hitCount when a profile has no samples list', () => {
    const counted: CpuProfile = { ...PROFILE, samples: undefined, nodes: PROFILE.nodes.map((n) => ({ ...n, hitCount: n.id === 3 ? 4 : 0 })) };
    expect(summarize(counted, ROOT)).toMatchObject({ busy: 4, groups: new Map([['native', 4]]) });
  });
});

describe('groupOf', () => {
  const frame = (url: string, functionName = 'f') => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
  it('names the innermost package, with its scope', () => {
    expect(groupOf(frame(`file://${ROOT}/node_modules/a/node_modules/@scope/b/x.js`), ROOT)).toBe('@scope/b');
  });
  it('tells Node, V8, native code, the sandbox and other files apart', () => {
    expect(groupOf(frame('node:internal/streams/writable'), ROOT)).toBe('node');
    expect(groupOf(frame('', '(program)'), ROOT)).toBe('v8');
    expect(groupOf(frame('', 'writeUtf8String'), ROOT)).toBe('native');
    expect(groupOf(frame(`file://${ROOT}/dist/src/bin.js`), ROOT)).toBe('sandbox');
    expect(groupOf(frame('file:///elsewhere/x.js'), ROOT)).toBe('other');
  });
});

describe('renderProfile', () => {
  it('prints percentages of the busy samples, sorted by total (ties by self)', () => {
    const text = renderProfile('GET', summarize(PROFILE, ROOT), 2);
    expect(text).toContain('| sandbox | 30.0% |');
    expect(text).toContain('| serve | dist/chunks/chunk-A.js:10 | sandbox | 30.0% | 80.0% |');
    const byTotal = text.slice(text.indexOf('by total time'));
    expect(
      byTotal
        .split('\n')
        .filter((l) => l.startsWith('| ') && !l.startsWith('| function'))
        .map((l) => l.split(' | ')[0]),
    ).toEqual(['| serve', '| stringify']);
  });
});
