import { readFileSync } from 'node:fs';
import type { ConfigIo } from './secrets.js';

/** Secret files read from the file system (the command line's and the Node library's). */
export const fileIo: ConfigIo = { readFile: (path) => readFileSync(path, 'utf8') };
