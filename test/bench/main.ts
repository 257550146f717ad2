/**
 * `npm run bench`: the comparisons (run.ts), or with `--soak` the soak run
 * instead (soak-run.ts, docs/soak.md), or with `--profile` the CPU profiles
 * (profile-run.ts, `npm run profile`). Each is imported only when chosen:
 * they start work as they load.
 */
import { profile, soak } from './options.js';

if (soak) process.exit(await (await import('./soak-run.js')).runSoak());
else if (profile) process.exit(await (await import('./profile-run.js')).runProfiles());
else await import('./run.js');
