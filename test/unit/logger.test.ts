import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/ops/logger.js';
import type { RequestLine } from '../../src/kernel/logger.js';

/** A stream that keeps what it is given. */
function sink() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (chunk: string) => chunks.push(chunk) > 0 } as unknown as NodeJS.WritableStream };
}

describe('the logger', () => {
  it('writes info and request lines to out, warnings and errors to err, as JSON', () => {
    const out = sink();
    const err = sink();
    const logger = createLogger({ level: 'info', out: out.stream, err: err.stream });
    logger.info('hello', { a: 1 });
    logger.request({
      requestId: 'r',
      method: 'GET',
      path: '/v1/pets',
      status: 200,
      durationMs: 1,
      operation: 'listPets',
      workspace: undefined,
      mode: 'stateful',
    });
    logger.warn('careful');
    logger.error('broken', new Error('boom'));
    const lines = (chunks: string[]) =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines(out.chunks).map((l) => [l.level, l.msg])).toEqual([
      ['info', 'hello'],
      ['info', 'request'],
    ]);
    expect(lines(err.chunks).map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'careful'],
      ['error', 'broken'],
    ]);
    expect((lines(err.chunks)[1]?.err as { message: string }).message).toBe('boom');
    expect(logger.logsRequests).toBe(true);
    expect(createLogger({ level: 'warn', out: out.stream, err: err.stream }).logsRequests).toBe(false);
  });

  it('stamps each line with the time it was written, in ISO 8601', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const out = sink();
      const logger = createLogger({ level: 'info', out: out.stream, err: sink().stream });
      const times = ['2026-11-26T05:00:00.000Z', '2026-11-26T05:00:00.000Z', '2026-11-26T05:00:00.001Z', '2026-11-26T06:30:15.250Z'];
      for (const time of times) {
        vi.setSystemTime(new Date(time));
        logger.info('tick');
      }
      const lines = out.chunks.map((chunk) => JSON.parse(chunk) as { time: string });
      expect(lines.map((line) => line.time)).toEqual(times);
    } finally {
      vi.useRealTimers();
    }
  });

  it("writes a request line byte for byte as pino's own info line with the same fields and message", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-26T07:00:00.123Z'));
      const out = sink();
      const logger = createLogger({ level: 'info', out: out.stream, err: sink().stream });
      const base: RequestLine = {
        requestId: '143043a8-e03e-4687-b8cd-e945d4cc2edb',
        method: 'GET',
        path: '/v1/pets',
        status: 200,
        durationMs: 1.7,
        operation: 'listPets',
        workspace: 'efa0b51433f310ab',
        mode: 'stateful',
      };
      const lines: RequestLine[] = [
        base,
        { ...base, operation: undefined, workspace: undefined, status: 404 },
        { ...base, path: '/v1/p"e\\ts\t\u0001/\u00e9\u00ff/caf\u00e9\u2028/\ud83d\ude00', method: 'DELETE' },
        { ...base, path: `/v1/${'a"b'.repeat(40)}`, durationMs: 0.01 },
        { ...base, path: '/v1/\ud800lone', requestId: 'x\udfffy' },
        { ...base, durationMs: Number.NaN, status: Number.POSITIVE_INFINITY },
      ];
      for (const line of lines) {
        logger.request(line);
        logger.info('request', line as unknown as Record<string, unknown>);
      }
      expect(out.chunks).toHaveLength(lines.length * 2);
      for (let i = 0; i < out.chunks.length; i += 2) expect(out.chunks[i]).toBe(out.chunks[i + 1]);
      expect(JSON.parse(out.chunks[0] as string)).toMatchObject({ level: 'info', time: '2026-11-26T07:00:00.123Z', msg: 'request', ...base });
    } finally {
      vi.useRealTimers();
    }
  });
});
