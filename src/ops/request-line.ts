import { pino, type DestinationStream, type Logger as Pino } from 'pino';

/** One answered request, as its log line has it: never a key or a token. */
export interface RequestLine {
  requestId: string;
  method: string;
  /** The path without its query string (a query may carry what a log should not keep). */
  path: string;
  status: number;
  durationMs: number;
  /** The spec operation (`listPets`) or control operation (`getReadiness`) answered, if one was. */
  operation: string | undefined;
  /** The workspace id of the accepted API key (a keyed hash, never the key). */
  workspace: string | undefined;
  mode: string;
}

/** A string pino would escape otherwise than `JSON.stringify` does (a lone surrogate): such a line goes through pino. */
const UNPAIRED = /[\ud800-\udfff]/;

/**
 * The request line's text, byte for byte the one `log.info(line, 'request')`
 * writes: pino's cached level prefix, the time, the logger's bindings
 * (`pid`, `hostname`), the fields in order (an undefined one left out), the
 * message. Written straight to `out`: pino's general path (its `LOG`,
 * `write` and `asJson`, a loop over the object's keys with a serializer
 * look-up per key) was most of the request log's cost in the GET profiles,
 * for a line whose fields are known. A line that could come out otherwise
 * (a lone surrogate in its path or id) is left to pino; a logger whose line has
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
  return (line) => {
    if (UNPAIRED.test(line.path) || UNPAIRED.test(line.requestId)) return through(line);
    const operation = line.operation === undefined ? '' : `,"operation":${JSON.stringify(line.operation)}`;
    const workspace = line.workspace === undefined ? '' : `,"workspace":${JSON.stringify(line.workspace)}`;
    out.write(
      `${head}${time()}${bindings},"requestId":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)}` +
        `,"status":${number(line.status)},"durationMs":${number(line.durationMs)}${operation}${workspace},"mode":${JSON.stringify(line.mode)}${tail}`,
    );
  };
}
