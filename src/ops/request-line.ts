import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import type { RequestLine } from '../kernel/logger.js';

/** A string pino would escape otherwise than `JSON.stringify` does (a lone surrogate): such a line goes through pino. */
const UNPAIRED = /[\ud800-\udfff]/;
/** A string JSON writes as it is between its quotes: printable ASCII but `"` and `\` (a UUID, most paths). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A string field's JSON text; undefined when pino would write it otherwise. */
const field = (s: string) =>
  PLAIN.test(s) ? `"${s}"`
  : UNPAIRED.test(s) ? undefined
  : JSON.stringify(s);

/** The JSON text of a field whose values repeat (method, operation, workspace, mode): made once per value, 256 at most kept. */
function quotedOnce(): (value: string) => string {
  const known = new Map<string, string>();
  return (value) => {
    let text = known.get(value);
    if (text === undefined) {
      if (known.size >= 256) known.clear();
      known.set(value, (text = JSON.stringify(value)));
    }
    return text;
  };
}

/**
 * The request line's text, byte for byte the one `log.info(line, 'request')`
 * writes: pino's cached level prefix, the time, the logger's bindings
 * (`pid`, `hostname`), the fields in order (an undefined one left out), the
 * message. Written straight to `out`: pino's general path (its `LOG`,
 * `write` and `asJson`, a loop over the object's keys with a serializer
 * look-up per key) was most of the request log's cost in the GET profiles,
 * for a line whose fields are known; a field that needs no escaping is not
 * escaped, and those whose values repeat are escaped once per value. A line
 * that could come out otherwise (a lone surrogate in its path or id) is left to pino; a logger whose line has
 * hooks, a mixin or a nested key is left to pino wholly. The logger test
 * compares the two texts.
 */
export function requestLineWriter(log: Pino, time: () => string, out: DestinationStream): (line: RequestLine) => void {
  const through = (line: RequestLine) => log.info(line, 'request');
  const own = log as unknown as Record<symbol, unknown>;
  const { lsCacheSym, chindingsSym, endSym, mixinSym, hooksSym, nestedKeySym, messageKeySym, formattersSym } = pino.symbols;
  const hooks = own[hooksSym] as { streamWrite?: unknown; logMethod?: unknown } | undefined;
  const formatters = own[formattersSym] as { log?: unknown } | undefined;
  if (own[mixinSym] || own[nestedKeySym] || hooks?.streamWrite || hooks?.logMethod || formatters?.log) return through;
  const head = (own[lsCacheSym] as Record<number, string>)[log.levels.values.info as number] as string;
  const bindings = own[chindingsSym] as string;
  const tail = `,${JSON.stringify(own[messageKeySym])}:"request"${own[endSym] as string}`;
  const number = (n: number) => (Number.isFinite(n) ? String(n) : 'null');
  const [method, operation, workspace, mode] = [quotedOnce(), quotedOnce(), quotedOnce(), quotedOnce()];
  return (line) => {
    const requestId = field(line.requestId);
    const path = field(line.path);
    if (requestId === undefined || path === undefined) return through(line);
    const op = line.operation === undefined ? '' : `,"operation":${operation(line.operation)}`;
    const ws = line.workspace === undefined ? '' : `,"workspace":${workspace(line.workspace)}`;
    out.write(
      `${head}${time()}${bindings},"requestId":${requestId},"method":${method(line.method)},"path":${path}` +
        `,"status":${number(line.status)},"durationMs":${number(line.durationMs)}${op}${ws},"mode":${mode(line.mode)}${tail}`,
    );
  };
}
