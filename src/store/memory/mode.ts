import type { ModeStore } from '../backend.js';
import type { Mode } from '../../config/load.js';

/**
 * The mode, kept in this process (the file and memory stores): a plain
 * field, as the /v1 pipeline reads it on every request, changed by `set`.
 */
export function memoryMode(initial: Mode): ModeStore {
  const runtime: ModeStore = {
    mode: initial,
    set: (next) => {
      runtime.mode = next;
      return Promise.resolve();
    },
  };
  return runtime;
}
