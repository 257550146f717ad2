/** Where a QA command writes: its output (stdout) and its notes and failures (stderr), which only cli.ts prints. */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}
