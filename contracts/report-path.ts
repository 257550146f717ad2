/**
 * Where a `verify --report` file may be written, and how. A report goes
 * where CI jobs and people point it, often in a shared folder: verify must
 * not become a way to overwrite a file it was never meant to touch.
 *
 * - A path that holds nothing, an empty file, or a report verify wrote
 *   earlier (its JUnit or CTRF head names `petstore-sandbox verify`) is
 *   written.
 * - A regular file holding anything else is refused unless `--force`.
 * - A symbolic link is refused, `--force` or not: it is never followed,
 *   and never replaced (the user removes it, or chooses another path).
 *   So are a directory and anything else that is not a regular file (a
 *   FIFO, a device such as /dev/null).
 *
 * The file is written to a new temporary file in the same folder and then
 * renamed over the path: a link or a file put there since the check is
 * replaced, never written through, and a reader never sees half a report.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, lstatSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { REPORT_GENERATOR } from './report-run.js';

/** How much of an existing file is read to tell whether verify wrote it. */
const HEAD_BYTES = 1024;
const generator = REPORT_GENERATOR.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The heads of the reports verify writes (report-junit.ts, report-ctrf.ts), whichever format the path is given for now. */
const REPORT_HEADS = [
  new RegExp(`^<\\?xml version="1\\.0" encoding="UTF-8"\\?>\\n<testsuites name="${generator}"`),
  new RegExp(`^\\{\\n {2}"reportFormat": "CTRF",\\n(?: {2}"\\w+": "[^"\\n]*",\\n){0,4} {2}"generatedBy": "${generator}",\\n`),
];

/** The first bytes of a regular file, read without following a link. */
function headOf(path: string): string {
  // O_NOFOLLOW: a link put in place since lstat fails here (ELOOP) rather than being read through.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    return buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Whether the text starts as a report verify writes. */
export const isVerifyReport = (head: string): boolean => REPORT_HEADS.some((re) => re.test(head));

/**
 * Why `path` cannot take a report, or undefined when it can: checked when
 * verify starts (so a bad path never waits for a whole run) and again just
 * before the file is written.
 */
export function reportPathProblem(path: string, force: boolean): string | undefined {
  try {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) return 'it is a symbolic link, which verify never follows or replaces, --force or not; remove it or choose another path';
    if (stat?.isDirectory()) return 'it is a directory';
    if (stat && !stat.isFile()) return 'it is not a regular file';
    if (stat) {
      accessSync(path, constants.W_OK);
      if (stat.size > 0 && !force && !isVerifyReport(headOf(path))) return 'it holds something that is not a report verify wrote; pass --force to overwrite it';
    }
    const folder = statSync(dirname(path), { throwIfNoEntry: false });
    if (!folder?.isDirectory()) return `its folder ${dirname(path)} does not exist`;
    accessSync(dirname(path), constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'it became a symbolic link';
    return code === 'EACCES' ? 'permission denied' : (error as Error).message;
  }
}

/** Writes `text` at `path` once it is checked again: through a new file in the same folder, renamed over the path. */
export function writeReportFile(path: string, text: string, force: boolean): void {
  const problem = reportPathProblem(path, force);
  if (problem) throw new Error(`cannot write there: ${problem}`);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // wx: O_CREAT|O_EXCL, which never follows a link and never opens a file that is already there.
    writeFileSync(temporary, text, { flag: 'wx' });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
