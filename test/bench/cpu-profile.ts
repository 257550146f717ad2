/**
 * A reader of V8 `.cpuprofile` files (what `node --cpu-prof` writes): a tree
 * of nodes, each a call frame with its children, and the list of sampled
 * node ids. It turns one into per-function self and total shares of the
 * busy samples, and per-group self shares (the sandbox, Node, V8, each npm
 * package), for docs/performance.md's "Profiles" section.
 */

export interface CallFrame {
  functionName: string;
  url: string;
  /** 0-based, as V8 writes it. */
  lineNumber: number;
  columnNumber: number;
}

export interface CpuProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface FrameShare {
  /** The function's name, `(anonymous)` when it has none. */
  name: string;
  /** `path:line` (1-based, relative to the root given), or empty for V8's own entries. */
  location: string;
  group: string;
  /** Busy samples in which it was on top of the stack / anywhere on it. */
  self: number;
  total: number;
}

export interface ProfileSummary {
  /** Samples minus `(idle)` ones: the CPU the process used. */
  busy: number;
  frames: FrameShare[];
  /** Self samples per group. */
  groups: Map<string, number>;
}

/** V8's pseudo-frames: `(root)` holds everything, `(idle)` is no CPU. */
const ROOT = '(root)';
const IDLE = '(idle)';

/**
 * The group of a frame: a package under node_modules (the innermost one,
 * with its scope), `node` for Node's own modules, `v8` for V8's pseudo-frames
 * (`(garbage collector)`, `(program)`), `native` for the other frames without
 * a url (C++ bindings such as a socket's write, builtins such as
 * JSON.stringify), `sandbox` for files under `root`, else `other`.
 */
export function groupOf(frame: CallFrame, root: string): string {
  const url = frame.url.replace(/^file:\/\//, '');
  if (url === '') return frame.functionName.startsWith('(') ? 'v8' : 'native';
  if (url.startsWith('node:') || !url.includes('/')) return 'node';
  const at = url.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const [first = '', second = ''] = url.slice(at + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  return url.startsWith(root) ? 'sandbox' : 'other';
}

const locationOf = (frame: CallFrame, root: string): string => {
  const url = frame.url.replace(/^file:\/\//, '');
  if (url === '') return '';
  const path = url.startsWith(`${root}/`) ? url.slice(root.length + 1) : url;
  return `${path}:${frame.lineNumber + 1}`;
};

const keyOf = (f: CallFrame) => `${f.functionName}\u0000${f.url}\u0000${f.lineNumber}\u0000${f.columnNumber}`;

/** Samples per node id: from `samples` when the profile has them, else each node's `hitCount`. */
function selfCounts(profile: CpuProfile): Map<number, number> {
  const counts = new Map<number, number>();
  if (profile.samples) for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  else for (const node of profile.nodes) if (node.hitCount) counts.set(node.id, node.hitCount);
  return counts;
}

/**
 * Self and total samples per function (same name, file, line and column),
 * over the busy samples. A function counts once per sample however often
 * it recurs on that sample's stack, so no total passes 100%.
 */
export function summarize(profile: CpuProfile, root: string): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const frames = new Map<string, FrameShare>();
  const groups = new Map<string, number>();
  let busy = 0;
  for (const [id, count] of selfCounts(profile)) {
    const top = byId.get(id);
    if (!top || top.callFrame.functionName === IDLE) continue;
    busy += count;
    const seen = new Set<string>();
    for (let node: CpuProfileNode | undefined = top; node; node = byId.get(parent.get(node.id) ?? Number.NaN)) {
      const frame = node.callFrame;
      if (frame.functionName === ROOT) continue;
      const key = keyOf(frame);
      const share = frames.get(key) ?? shareOf(frame, root);
      frames.set(key, share);
      if (node === top) share.self += count;
      if (!seen.has(key)) share.total += count;
      seen.add(key);
    }
    const group = groupOf(top.callFrame, root);
    groups.set(group, (groups.get(group) ?? 0) + count);
  }
  return { busy, frames: [...frames.values()], groups };
}

function shareOf(frame: CallFrame, root: string): FrameShare {
  return { name: frame.functionName || '(anonymous)', location: locationOf(frame, root), group: groupOf(frame, root), self: 0, total: 0 };
}
