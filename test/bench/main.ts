/**
 * `npm run bench`: the comparisons (run.ts), or with `--soak` the soak run
 * instead (soak-run.ts, docs/soak.md). Each is imported only when chosen:
 * both start work as they load.
 */
import { soak } from './options.js';

if (soak) process.exit(await (await import('./soak-run.js')).runSoak());
else await import('./run.js');
