/**
 * A query string parsed exactly as Node's `querystring.parse` parses it
 * (the server's rule since its first version), with no Node module, so that
 * the engine also runs in a browser. The same single pass as Node's, with
 * its quirks kept on purpose (test/unit/core/query-string.test.ts proves the
 * two equal for any input):
 * - pairs split on `&`, at most `maxKeys` of them (empty ones counted), a
 *   name from its value on the first `=`; an empty pair names nothing;
 * - `+` is a space; a name or value is percent-decoded only when the pass saw
 *   a valid `%XX` escape in it (a `+` does not break an escape being read in
 *   a value, and a second escape in an already-escaped name marks its value
 *   too); one that is not UTF-8 has its escapes decoded byte by byte;
 * - a repeated name gives an array, in order; the object has no prototype.
 */
export function parseQuery(qs: string, maxKeys = 1000): Record<string, string | string[]> {
  const obj = Object.create(null) as Record<string, string | string[]>;
  if (qs.length === 0) return obj;
  let pairs = maxKeys > 0 ? maxKeys : -1;
  let lastPos = 0;
  let inValue = false;
  let key = '';
  let value = '';
  let keyEncoded = false;
  let valEncoded = false;
  let check = 0;
  for (let i = 0; i < qs.length; ++i) {
    const code = qs.charCodeAt(i);
    if (code === 38 /* & */) {
      if (inValue) value += qs.slice(lastPos, i);
      else key += qs.slice(lastPos, i);
      // An empty pair is counted, never added.
      if (inValue || key.length > 0) add(obj, key, value, keyEncoded, valEncoded);
      if (--pairs === 0) return obj;
      key = value = '';
      inValue = keyEncoded = valEncoded = false;
      check = 0;
      lastPos = i + 1;
      continue;
    }
    if (!inValue) {
      if (code === 61 /* = */) {
        key += qs.slice(lastPos, i);
        inValue = true;
        check = 0;
        lastPos = i + 1;
        continue;
      }
      if (!keyEncoded) {
        // Reading an escape: nothing else to do with this character.
        check = nextCheck(check, code);
        if (check === 3) keyEncoded = true;
        if (check > 0) continue;
      }
      if (code === 43 /* + */) {
        key += `${qs.slice(lastPos, i)} `;
        lastPos = i + 1;
        continue;
      }
    }
    // Node's pass reads a name's characters here too once the name is known to be escaped: a second escape marks the value.
    if (code === 43) {
      value += `${qs.slice(lastPos, i)} `;
      lastPos = i + 1;
    } else if (!valEncoded) {
      check = nextCheck(check, code);
      if (check === 3) valEncoded = true;
    }
  }
  if (inValue) value += qs.slice(lastPos);
  else key += qs.slice(lastPos);
  if (inValue || key.length > 0) add(obj, key, value, keyEncoded, valEncoded);
  return obj;
}

/** How far an escape has been read: 1 after `%`, 2 and 3 after each hex digit; 0 when the character ends it. */
const nextCheck = (check: number, code: number): number =>
  code === 37 ? 1
  : check > 0 && isHex(code) ? check + 1
  : 0;

function add(obj: Record<string, string | string[]>, key: string, value: string, keyEncoded: boolean, valEncoded: boolean): void {
  if (key.length > 0 && keyEncoded) key = unescape(key);
  if (value.length > 0 && valEncoded) value = unescape(value);
  const had = obj[key];
  if (had === undefined) obj[key] = value;
  else if (typeof had === 'string') obj[key] = [had, value];
  else had.push(value);
}

const hexValue = (code: number): number => {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
};
const isHex = (code: number): boolean => hexValue(code) !== -1;

function unescape(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return unescapeBytes(text);
  }
}

const utf8 = new TextDecoder();

/** Node's `unescapeBuffer`: each character as one byte (its low 8 bits), valid escapes as the byte they name, read as UTF-8. */
function unescapeBytes(text: string): string {
  const bytes = new Uint8Array(text.length);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 37 && i < text.length - 2) {
      const high = hexValue(text.charCodeAt(i + 1));
      const low = high === -1 ? -1 : hexValue(text.charCodeAt(i + 2));
      if (low !== -1) {
        bytes[length++] = high * 16 + low;
        i += 2;
        continue;
      }
    }
    bytes[length++] = code & 0xff;
  }
  return utf8.decode(bytes.subarray(0, length));
}
