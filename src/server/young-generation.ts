import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * The young generation's default cap, in bytes (both semi-spaces). V8 lets
 * it grow to 64 MiB under sustained load, and a server keeps it: about a
 * quarter of the sandbox's resident memory for objects that live a
 * request. At 16 MiB a scavenge still finds most of a request's objects
 * dead (docs/performance.md: peak RSS and the GET rows, measured).
 */
export const YOUNG_GENERATION_BYTES = 16 * 2 ** 20;

/** V8 flags that size the young generation: when the operator gave one, the process is left as it was told. */
const SIZING_FLAGS = ['--max-semi-space-size', '--min-semi-space-size', '--semi-space-growth-factor'];

/** Whether the operator sized the young generation (node's arguments or NODE_OPTIONS). */
export function youngGenerationSized(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) => arg.replaceAll('_', '-'));
  return given.some((arg) => SIZING_FLAGS.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
}

/** The young generation's size now (V8's `new_space`), bytes. */
function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** The kind of collection a `gc` performance entry reports (its `detail.kind`). */
const gcKind = (entry: object): number | undefined => (entry as { detail?: { kind?: number } }).detail?.kind;

/** The young generation's growth as `capYoungGeneration` governs it. */
export interface YoungGenerationCap {
  /** From now on the space may grow again, up to the cap: call it once the server serves. */
  serving(): void;
  /** Stops governing it (the growth factor stays as it was last set). */
  stop(): void;
}

/**
 * Keeps the young generation of this process at most `capBytes`. V8 reads
 * `--max-semi-space-size` only when the process starts, but it reads its
 * growth factor each time it grows the space. Until `serving()`, the space
 * does not grow (factor 1): what loading a store allocates lives on, so a
 * larger space would only be copied through, and V8 gives back a grown one
 * only when the process goes idle. From then on, after each scavenge,
 * growth is allowed (factor 2) while doubling stays within the cap and
 * stopped (factor 1) once it would not; when V8 shrinks the space (an idle
 * process), it may grow again up to the cap. Does nothing when the
 * operator sized the young generation.
 */
export function capYoungGeneration(capBytes = YOUNG_GENERATION_BYTES): YoungGenerationCap {
  if (youngGenerationSized()) return { serving: () => undefined, stop: () => undefined };
  let factor = 0;
  const setFactor = (next: number) => {
    if (next === factor) return;
    factor = next;
    setFlagsFromString(`--semi-space-growth-factor=${next}`);
  };
  const check = () => setFactor(youngGenerationBytes() * 2 <= capBytes ? 2 : 1);
  const observer = new PerformanceObserver((list) => {
    // A scavenge is where V8 grows or shrinks the space; other collections leave it.
    if (list.getEntries().some((entry) => gcKind(entry) === constants.NODE_PERFORMANCE_GC_MINOR)) check();
  });
  setFactor(1);
  return {
    serving: () => {
      observer.observe({ entryTypes: ['gc'] });
      check();
    },
    stop: () => observer.disconnect(),
  };
}
