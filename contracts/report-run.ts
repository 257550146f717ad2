import type { RunCoverage } from './verify-coverage.js';

/** The name every report of verify carries (JUnit's `testsuites name`, CTRF's `generatedBy`): how verify knows a report it wrote. */
export const REPORT_GENERATOR = 'petstore-sandbox verify';

/** What a report says about the run as a whole. */
export interface ReportRun {
  /** The report's title, e.g. `petstore-sandbox verify`. */
  name: string;
  /** The deployment verified (`--target`). */
  target: string;
  /** Milliseconds since the epoch. */
  start: number;
  stop: number;
  /** The coverage of the workspace the run used, when it had a control plane to ask. */
  coverage?: RunCoverage | undefined;
}
