import type { DestinationStream } from 'pino';

/** ANSI colour of each level's name. */
const COLOURS: Record<string, number> = { trace: 90, debug: 36, info: 32, warn: 33, error: 31, fatal: 35 };
/** Fields every line has, shown in its own place, not as `key=value`. */
const PLACED = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'err']);

const paint = (text: string, code: number | undefined, colours: boolean) => (colours && code !== undefined ? `\x1b[${code}m${text}\x1b[39m` : text);
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * One JSON log line as a person reads it: `14:02:03.123 INFO  message key=value`;
 * a request as `GET /v1/pets 200 1.2 ms listPets [request id]`; an error with
 * its stack. A line that is not JSON is passed through.
 */
export function prettyLine(line: string, colours: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = typeof entry.level === 'string' ? entry.level : 'info';
  const clock = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const head = `${clock} ${paint(level.toUpperCase().padEnd(5), COLOURS[level], colours)}`;
  const { method, path, status, durationMs, operation, requestId, ...others } = entry;
  if (entry.msg === 'request') {
    const request = [method, path, status, `${String(durationMs)} ms`, operation, `[${String(requestId)}]`].filter((v) => v !== undefined);
    const extra = Object.entries(others).filter(([k, v]) => !PLACED.has(k) && v !== undefined);
    return `${head} ${request.map(shown).join(' ')}${extra.map(([k, v]) => ` ${k}=${shown(v)}`).join('')}\n`;
  }
  const fields = Object.entries(entry).filter(([k]) => !PLACED.has(k));
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const trace = err ? `\n${err.stack ?? err.message ?? shown(err)}` : '';
  return `${head} ${shown(entry.msg ?? '')}${fields.map(([k, v]) => ` ${k}=${shown(v)}`).join('')}${trace}\n`;
}

/** A pino destination that writes each line pretty, through `write` (bin.ts gives stdout or stderr). */
export function prettyDestination(write: (text: string) => void, colours: boolean): DestinationStream {
  return { write: (line: string) => write(prettyLine(line, colours)) };
}
