import { readFileSync, statSync } from 'node:fs';
import type { ConfigIo } from './secrets.js';

/** Secret files read from the file system (the command line's and the Node library's). */
export const fileIo: ConfigIo = {
  readFile: (path) => readFileSync(path, 'utf8'),
  // Any user of the machine may read a file whose mode has the "others" read bit (say 0644).
  readableByAnyone: (path) => (statSync(path).mode & 0o004) !== 0,
};
