import type { ModeStore } from '../backend.js';
import type { Mode } from '../../config/load.js';

/** The mode, kept in this process (the file and memory stores). */
export function memoryMode(initial: Mode): ModeStore {
  let mode = initial;
  return {
    get mode() {
      return mode;
    },
    set: (next) => {
      mode = next;
      return Promise.resolve();
    },
  };
}
