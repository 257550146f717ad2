/** What a report says about the run as a whole. */
export interface ReportRun {
  /** The report's title, e.g. `petstore-sandbox verify`. */
  name: string;
  /** The deployment verified (`--target`). */
  target: string;
  /** Milliseconds since the epoch. */
  start: number;
  stop: number;
}
