/**
 * What a spec says of an operation's life, as response headers: a
 * `deprecated: true` operation answers `Deprecation` (RFC 9745) and, given
 * `x-sunset`, `Sunset` (RFC 8594); and the stability an operation declares
 * in `x-stability`. The headers a spec pins itself (a response header whose
 * schema has one `enum` value, as the Pet Store's `getPet` does) are sent by
 * the pinned headers' step: those win, and nothing is added here.
 */
import type { OperationSpec } from './spec.js';

type Json = Record<string, unknown>;

/** An RFC 3339 date or date-time, as `x-sunset` and `x-deprecated-since` are written. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?$/;

/** The instant an extension names (a date, a date-time, a `Date` from a YAML parser, or Unix seconds), in milliseconds. */
function instantOf(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? value * 1000 : undefined;
  if (typeof value !== 'string' || !ISO_DATE.test(value.trim())) return undefined;
  const text = value.trim().toUpperCase().replace(' ', 'T');
  // A day the calendar lacks (`2031-02-30`), which Date.parse would roll over, names no date.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  // A date-time without an offset is read as UTC, as a date alone is: the same header on every machine.
  const time = Date.parse(/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text}Z` : text);
  return Number.isNaN(time) ? undefined : time;
}

/** The operation as the spec writes it, for its extensions. */
function rawOperation(document: Json, op: OperationSpec): Json {
  const paths = document.paths as Record<string, Record<string, Json | undefined>> | undefined;
  return paths?.[op.path]?.[op.method] ?? {};
}

/** The names (lower-case) of the headers some documented response of the operation pins. */
function pinnedNames(op: OperationSpec): Set<string> {
  return new Set([...op.responses.values()].flatMap((response) => Object.keys(response.fixedHeaders).map((name) => name.toLowerCase())));
}

/**
 * The headers a deprecated operation answers with, none for another:
 * `Deprecation: @<Unix seconds>` of `x-deprecated-since` (or
 * `x-deprecation-date`); without either, `@0`, the Unix epoch: a date in the
 * past, the same on every start, which says only that the operation is
 * deprecated already. `Sunset` with the HTTP date of `x-sunset`, when it is
 * a date or a date-time (another value sends none). A header the spec pins
 * for the operation is left to the pinned value.
 */
export function deprecationHeadersOf(document: Json, op: OperationSpec): Record<string, string> {
  const raw = rawOperation(document, op);
  if (!op.deprecated && raw.deprecated !== true) return {};
  const pinned = pinnedNames(op);
  const headers: Record<string, string> = {};
  if (!pinned.has('deprecation')) {
    const since = instantOf(raw['x-deprecated-since'] ?? raw['x-deprecation-date']) ?? 0;
    headers.Deprecation = `@${Math.floor(since / 1000)}`;
  }
  const sunset = instantOf(raw['x-sunset']);
  if (!pinned.has('sunset') && sunset !== undefined) headers.Sunset = new Date(sunset).toUTCString();
  return headers;
}

/** The stabilities `x-stability` may declare. */
export type Stability = 'experimental' | 'beta';

/** The stability an operation declares (`x-stability: experimental` or `beta`, any case); undefined for a stable one or another value. */
export function stabilityOf(document: Json, op: OperationSpec): Stability | undefined {
  const value = rawOperation(document, op)['x-stability'];
  const stability = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return stability === 'experimental' || stability === 'beta' ? stability : undefined;
}
