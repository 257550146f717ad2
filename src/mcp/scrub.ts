/**
 * The admin token taken out of what the MCP server sends back, by the
 * structure of what is sent, never by a replacement over serialised text:
 * a token that happens to be a common word (`status`, `name`) must not
 * turn `{"status":403}` into `{"[admin token]":403}`. Only text values
 * are scrubbed: an object's keys, numbers, booleans and null stay as they
 * are, so a result keeps its shape whatever the token is.
 */
import { parseJson, stringifyJson } from '../kernel/json.js';

/** What stands where the token was. */
export const TOKEN_MARK = '[admin token]';

const replaceIn = (text: string, secret: string): string => text.split(secret).join(TOKEN_MARK);

/** A JSON object or array held as text (a tool's answer), parsed; undefined for any other text. */
function jsonIn(text: string): object | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    const value = parseJson(text);
    return value !== null && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** XML (a coverage report in JUnit XML): the token replaced in text between tags and in attribute values, never in a name. */
function scrubXml(text: string, secret: string): string {
  return text.replace(/(<[^>]*>)|([^<]+)/g, (_, tag: string | undefined, between: string | undefined) =>
    tag !== undefined ? tag.replace(/"[^"]*"|'[^']*'/g, (value) => replaceIn(value, secret)) : replaceIn(between ?? '', secret),
  );
}

/**
 * One text: JSON in it (an object or array) scrubbed value by value and
 * written again (integers keep their digits); XML in text and attribute
 * values; any other text (Markdown, a message) wherever the token occurs.
 */
export function scrubText(text: string, secret: string): string {
  if (secret === '' || !text.includes(secret)) return text;
  const json = jsonIn(text);
  if (json !== undefined) return stringifyJson(scrubValue(json, secret));
  if (text.trimStart().startsWith('<')) return scrubXml(text, secret);
  return replaceIn(text, secret);
}

/** `value` with the token taken out of every string in it, keys left as they are. */
export function scrubValue<T>(value: T, secret: string, depth = 0): T {
  if (secret === '') return value;
  if (typeof value === 'string') return scrubText(value, secret) as T;
  // Deeper than any answer of the control plane: a value past it is dropped rather than sent unscrubbed.
  if (depth > 256) return null as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubValue(item, secret, depth + 1)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v as unknown, secret, depth + 1)])) as T;
}
