import { describe, expect, it } from 'vitest';
import { prettyLine } from '../../src/ops/log-pretty.js';

const time = '2026-01-02T03:04:05.678Z';

describe('pretty log lines', () => {
  it('a request: method, path, status, duration, operation, id, then the rest', () => {
    const line = { level: 'info', time, pid: 1, hostname: 'h', requestId: 'r-1', method: 'GET', path: '/v1/pets', status: 200, durationMs: 1.5 };
    const json = JSON.stringify({ ...line, operation: 'listPets', workspace: 'abc', mode: 'stateful', msg: 'request' });
    expect(prettyLine(json, false)).toBe('03:04:05.678 INFO  GET /v1/pets 200 1.5 ms listPets [r-1] workspace=abc mode=stateful\n');
  });

  it('a message with its fields, an error with its stack, colours on request', () => {
    expect(prettyLine(JSON.stringify({ level: 'warn', time, msg: 'careful', signal: 'SIGTERM' }), false)).toBe('03:04:05.678 WARN  careful signal=SIGTERM\n');
    const error = JSON.stringify({ level: 'error', time, msg: 'broke', err: { message: 'x', stack: 'Error: x\n    at here' } });
    expect(prettyLine(error, false)).toBe('03:04:05.678 ERROR broke\nError: x\n    at here\n');
    expect(prettyLine(JSON.stringify({ level: 'error', time, msg: 'red' }), true)).toBe('03:04:05.678 \x1b[31mERROR\x1b[39m red\n');
  });

  it('passes a line that is not JSON through', () => {
    expect(prettyLine('plain\n', false)).toBe('plain\n');
  });
});
