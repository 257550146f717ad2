#!/usr/bin/env node
/** The `petstore-sandbox` executable: the command line of `cli.ts` on this process's arguments, its result as the exit code. */
import { runCli } from './cli.js';

runCli(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('petstore-sandbox: unexpected failure', error);
    process.exitCode = 1;
  },
);
