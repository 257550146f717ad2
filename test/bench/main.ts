/**
 * `npm run bench`: the comparisons (run.ts), or with `--soak` the soak run
 * instead (soak-run.ts, docs/soak.md), or with `--profile` the CPU profiles
 * (profile-run.ts, `npm run profile`), or with `--redraw` the chart drawn
 * again from the page already written (docs-page.ts). Each is imported only when chosen:
 * they start work as they load.
 */
import { docsDir, HELP, profile, redraw, soak, unknownScenarios } from './options.js';

if (process.argv.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
if (unknownScenarios.length > 0) {
  console.error(`bench: no scenario ${unknownScenarios.join(', ')}\n\n${HELP}`);
  process.exit(2);
}
if (soak) process.exit(await (await import('./soak-run.js')).runSoak());
else if (profile) process.exit(await (await import('./profile-run.js')).runProfiles());
else if (redraw) console.log(`chart: ${await (await import('./docs-page.js')).redrawChart(docsDir)}`);
else await import('./run.js');
