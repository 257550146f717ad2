/**
 * A value of the request quoted in an error message, and how much of it.
 * An error names what it refuses (`Unknown provider state '…'`), but a
 * client may send a name of megabytes: sending it back whole would make a
 * refusal as large as the request, written into logs and journals too. So
 * every message that quotes a value the client sent quotes it through
 * `echo`, cut to ECHO_LIMIT characters (docs/limits.md).
 */

/** The most characters of a client's value an error message quotes. */
export const ECHO_LIMIT = 100;

/**
 * `value` as an error message quotes it, between `quote` marks: whole when
 * it has at most ECHO_LIMIT characters; else its first ECHO_LIMIT, an
 * ellipsis, and how many characters it had, e.g. `'abc…' (5000000 characters)`.
 * A cut never splits a surrogate pair.
 */
export function echo(value: string, quote = "'"): string {
  if (value.length <= ECHO_LIMIT) return `${quote}${value}${quote}`;
  const end = isHighSurrogate(value.charCodeAt(ECHO_LIMIT - 1)) ? ECHO_LIMIT - 1 : ECHO_LIMIT;
  return `${quote}${value.slice(0, end)}…${quote} (${value.length} characters)`;
}

/** The first half of a character written as two UTF-16 units. */
const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
