/**
 * `diff OLD NEW`: the changes between two versions of a spec that would
 * break a consumer, written as Markdown or JSON; exit 1 when there is one,
 * 0 when every change is compatible, 2 when the command line or a spec is
 * wrong (docs/spec-diff.md).
 */
import { writeFile } from 'node:fs/promises';
import { FLAG_NAMING } from '../config/naming.js';
import { readSpecDocument } from '../openapi/spec-cache.js';
import { diffSpecs, documentProblem } from '../openapi/spec-diff.js';
import type { CommandIo } from './command-io.js';
import { CommandError } from './commands.js';
import { DIFF_FORMATS, diffSummary, writeDiff, type DiffFormat, type DiffReport, type DiffSide } from './diff-formats.js';

type Extra = Record<string, string | boolean | undefined>;

/** `diff`'s own options, parsed beside the other commands'. */
export const DIFF_OPTIONS = {
  out: { type: 'string' },
  json: { type: 'string' },
  markdown: { type: 'string' },
} as const;

export const DIFF_USAGE = 'diff <old spec> <new spec> [--format json|markdown] [--out file] [--json file] [--markdown file]';

/** The options that name a file to write, and the format each writes (`--out` the one of `--format`). */
const FILE_OPTIONS = ['out', 'json', 'markdown'] as const;

/** What is wrong with a `diff` command line (a usage error), else undefined. */
export function diffUsageProblem(operands: readonly string[], extra: Extra): string | undefined {
  if (operands.length !== 2) return `Usage: ${DIFF_USAGE}`;
  if (extra.format !== undefined && !DIFF_FORMATS.includes(extra.format as DiffFormat))
    return `${FLAG_NAMING.of('format')} must be one of ${DIFF_FORMATS.join(', ')}, got '${String(extra.format)}'.`;
  const empty = FILE_OPTIONS.find((name) => extra[name] === '');
  return empty === undefined ? undefined : `${FLAG_NAMING.of(empty)} needs a file name.`;
}

/** A spec that cannot be read or compared (exit 2): its message names the file and the problem, and is all there is to say. */
export class SpecReadError extends CommandError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A file's first line of complaint, without the excerpt a YAML error goes on with. */
const firstLine = (message: string): string => (message.split('\n')[0] ?? message).replace(/:$/, '');

/** One spec read and checked, or the usage error that names it and its problem. */
function readSide(file: string, which: 'old' | 'new'): { document: Record<string, unknown>; side: DiffSide } {
  let document: unknown;
  try {
    document = readSpecDocument(file);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why =
      code === 'ENOENT' ? 'no such file'
      : code === 'EISDIR' ? 'a folder, not a file'
      : firstLine(message);
    throw new SpecReadError(`Cannot read the ${which} spec ${file}: ${why}.`);
  }
  const problem = documentProblem(document);
  if (problem !== undefined) throw new SpecReadError(`Cannot compare the ${which} spec ${file}: ${problem}.`);
  const doc = document as Record<string, unknown>;
  const info = (doc.info ?? {}) as Record<string, unknown>;
  const side: DiffSide = {
    file,
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    ...(typeof info.version === 'string' ? { version: info.version } : {}),
  };
  return { document: doc, side };
}

/**
 * Runs `diff` on its operands and options: the report on stdout in
 * `--format` (Markdown unless told), or in the files named, with a line
 * that sums it up on stderr. Resolves with the exit code: 1 when a change
 * breaks a consumer, else 0; a usage error is a `CommandError` of code 2, a spec it cannot read a `SpecReadError`.
 */
export async function runDiff(operands: readonly string[], extra: Extra, io: CommandIo): Promise<number> {
  const problem = diffUsageProblem(operands, extra);
  if (problem !== undefined) throw new CommandError(problem, 2);
  const before = readSide(operands[0] as string, 'old');
  const after = readSide(operands[1] as string, 'new');
  const report: DiffReport = { old: before.side, new: after.side, ...diffSpecs(before.document, after.document) };
  const format = (extra.format ?? 'markdown') as DiffFormat;
  const files = FILE_OPTIONS.flatMap((name) => {
    const file = extra[name];
    return typeof file === 'string' ? [{ file, format: name === 'out' ? format : name }] : [];
  });
  if (files.length === 0) io.out(writeDiff(report, format).replace(/\n$/, ''));
  for (const { file, format: as } of files) {
    try {
      await writeFile(file, writeDiff(report, as));
    } catch (error) {
      throw new SpecReadError(`Cannot write ${file}: ${firstLine((error as Error).message)}.`);
    }
  }
  if (files.length > 0) io.err(`${diffSummary(report)}; written to ${files.map((f) => f.file).join(', ')}.`);
  return report.breaking > 0 ? 1 : 0;
}
