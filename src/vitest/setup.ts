/**
 * `petstore-sandbox/vitest/setup`, for `test.setupFiles`: Vitest runs it
 * before each test file, in the file's worker, so each file starts on its
 * worker's workspace as seeded, with no fault left by the file before. The
 * journal stays: it is the worker's whole story (clear it in a test that
 * reads it from the start).
 */
import { sandboxWorkspace } from './worker.js';

const workspace = sandboxWorkspace();
await workspace.reset();
await workspace.faults.clear();
