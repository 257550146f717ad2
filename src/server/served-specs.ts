/** The specs to serve, read from their files (or given as objects) and checked before anything else starts. */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigError } from '../config/error.js';
import { loadSpec } from '../openapi/load-spec.js';
import { checkBases, documentBases, servedSpecOf, type ServedSpec } from '../openapi/served-spec.js';

export type { ServedSpec } from '../openapi/served-spec.js';

/** A spec to serve: a file, or a document given as an object (`createSandbox({ spec })`). */
export type SpecSource = string | Record<string, unknown>;

/** The reason a spec cannot be read or served, in a few words. */
function problemOf(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EACCES') return 'permission denied';
  return (message ?? String(error)).split('\n')[0] as string;
}

/** The document of a spec file: YAML (JSON is YAML too). */
function readDocument(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(problemOf(error), { cause: error });
  }
  try {
    return parse(text, { prettyErrors: false });
  } catch (error) {
    throw new Error(`not valid YAML or JSON: ${problemOf(error)}`, { cause: error });
  }
}

/** How a spec given as an object is named in messages: its title, else its place. */
const nameOf = (document: Record<string, unknown>, index: number): string => {
  const title = (document.info as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? `'${title}' (spec ${index + 1})` : `spec ${index + 1}`;
};

/**
 * The specs to serve, each read and checked, in order; undefined when none
 * was given (the embedded Pet Store alone). One that cannot be served, or
 * two under one base path, is a ConfigError naming them.
 */
export function loadServedSpecs(sources: readonly SpecSource[]): ServedSpec[] | undefined {
  if (sources.length === 0) return undefined;
  const embedded = loadSpec();
  const served = sources.map((source, i) => {
    const file = typeof source === 'string' ? source : nameOf(source, i);
    try {
      return servedSpecOf(
        typeof source === 'string' ? file : `spec-${i + 1}`,
        source,
        (typeof source === 'string' ? readDocument(source) : source) as Record<string, unknown>,
        embedded,
      );
    } catch (error) {
      throw new ConfigError(`cannot serve the spec ${file}: ${problemOf(error)}`);
    }
  });
  try {
    checkBases(served);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return served;
}

/**
 * The base paths the specs will be served under, known at once (MSW's
 * handlers choose their requests before the sandbox is made): a spec that
 * cannot be read is left out here, and refused, said, when the sandbox is made.
 */
export function basesOf(sources: readonly SpecSource[]): string[] {
  const unreadable = undefined;
  return documentBases(
    sources.map((source) => {
      try {
        return typeof source === 'string' ? readDocument(source) : source;
      } catch {
        return unreadable;
      }
    }),
  );
}
