/**
 * `npm run verify -- --target <base URL ending in /v1> --key <key> [options]`
 * in a checkout of this repository (see verify-main.ts; the installed
 * package runs the same checks as `petstore-sandbox verify`).
 */
import { plainOutput } from './plain-output.js';
import { verifyMain } from './verify-main.js';

plainOutput(() => verifyMain(process.argv.slice(2), { name: 'npm run verify --', cli: 'npm run cli --' })).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('verify: could not run', error);
    process.exitCode = 1;
  },
);
