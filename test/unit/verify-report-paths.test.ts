/**
 * Which paths `verify --report` writes: nothing there, an empty file or a
 * report verify wrote; a file holding anything else only with --force; a
 * symbolic link, a directory or a device never, and a link is not followed
 * (its target stays as it was). Checked when verify starts and again when
 * it writes, through a temporary file renamed over the path.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReportCase } from '../../contracts/report-case.js';
import { parseReportTargets, writeReports, type ReportTarget } from '../../contracts/report-files.js';
import { isVerifyReport, reportPathProblem } from '../../contracts/report-path.js';
import { REPORT_GENERATOR } from '../../contracts/report-run.js';
import { tempDir } from '../support/harness.js';

const RUN = { name: REPORT_GENERATOR, target: 'http://127.0.0.1:1/v1', start: 1_700_000_000_000, stop: 1_700_000_001_234 };
const CASES: ReportCase[] = [{ tool: 'Dredd', group: 'spec/openapi.yaml', name: 'GET /pets', status: 'passed', durationMs: 3, message: '' }];
const NOTES = 'my notes, not a report\n';

/** A new folder holding `notes.txt` (not a report) and `target.txt` behind the symbolic link `link.xml`. */
function folder(): string {
  const dir = tempDir('petstore-report-');
  writeFileSync(join(dir, 'notes.txt'), NOTES);
  writeFileSync(join(dir, 'target.txt'), NOTES);
  symlinkSync(join(dir, 'target.txt'), join(dir, 'link.xml'));
  return dir;
}

const write = (targets: ReportTarget[]) => writeReports(targets, CASES, RUN);

describe('verify --report paths', () => {
  it('refuses a file that is not a report verify wrote, and leaves it as it was', () => {
    const dir = folder();
    expect(() => parseReportTargets(['junit=notes.txt'], dir)).toThrow(
      '--report junit=notes.txt: cannot write there: it holds something that is not a report verify wrote; pass --force to overwrite it',
    );
    // Checked again when the run ends: a file that appeared meanwhile is refused as well.
    const { written, problems } = write([{ format: 'ctrf', path: join(dir, 'notes.txt'), force: false }]);
    expect(written).toEqual([]);
    expect(problems).toEqual([expect.stringContaining('it holds something that is not a report verify wrote')]);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe(NOTES);
  });

  it('overwrites it with --force', () => {
    const dir = folder();
    const targets = parseReportTargets(['junit=notes.txt'], dir, true);
    expect(targets).toEqual([{ format: 'junit', path: join(dir, 'notes.txt'), force: true }]);
    expect(write(targets).problems).toEqual([]);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toContain(`<testsuites name="${REPORT_GENERATOR}"`);
  });

  it('refuses a symbolic link, --force or not, and never writes through it or replaces it', () => {
    const dir = folder();
    symlinkSync(join(dir, 'nowhere.xml'), join(dir, 'dangling.xml'));
    for (const force of [false, true]) {
      for (const file of ['link.xml', 'dangling.xml'])
        expect(() => parseReportTargets([`junit=${file}`], dir, force)).toThrow(`--report junit=${file}: cannot write there: it is a symbolic link`);
      // A link put in place after the check: refused when the run ends too.
      expect(write([{ format: 'junit', path: join(dir, 'link.xml'), force }]).problems).toEqual([expect.stringContaining('it is a symbolic link')]);
    }
    expect(readFileSync(join(dir, 'target.txt'), 'utf8')).toBe(NOTES);
    expect(lstatSync(join(dir, 'link.xml')).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['dangling.xml', 'link.xml', 'notes.txt', 'target.txt']);
  });

  it('writes again over a report it wrote, of either format, and over an empty file, leaving no temporary file', () => {
    const dir = folder();
    writeFileSync(join(dir, 'empty.xml'), '');
    const first = parseReportTargets(['junit=r.xml', 'ctrf=r.json', 'junit=empty.xml'], dir);
    expect(write(first).problems).toEqual([]);
    for (const file of ['r.xml', 'r.json']) expect(isVerifyReport(readFileSync(join(dir, file), 'utf8')), file).toBe(true);
    // Again, and with the formats swapped: each file is a report verify wrote.
    const again = parseReportTargets(['ctrf=r.xml', 'junit=r.json', 'ctrf=empty.xml'], dir);
    expect(write(again)).toEqual({ written: expect.any(Array), problems: [] });
    expect(JSON.parse(readFileSync(join(dir, 'r.xml'), 'utf8'))).toMatchObject({ generatedBy: REPORT_GENERATOR });
    expect(readdirSync(dir).sort()).toEqual(['empty.xml', 'link.xml', 'notes.txt', 'r.json', 'r.xml', 'target.txt']);
  });

  it('knows its own reports by their head, not by a name alone', () => {
    expect(isVerifyReport('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="other tool">')).toBe(false);
    expect(isVerifyReport(`{"generatedBy":"${REPORT_GENERATOR}"}`)).toBe(false);
    expect(isVerifyReport(`notes about <testsuites name="${REPORT_GENERATOR}"`)).toBe(false);
  });

  it('refuses a directory and what is not a regular file (a FIFO, a device), --force or not', () => {
    const dir = folder();
    mkdirSync(join(dir, 'sub'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    for (const force of [false, true]) {
      expect(reportPathProblem(join(dir, 'sub'), force)).toBe('it is a directory');
      expect(reportPathProblem(join(dir, 'fifo'), force)).toBe('it is not a regular file');
      expect(reportPathProblem('/dev/null', force)).toBe('it is not a regular file');
    }
  });
});
