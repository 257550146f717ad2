import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/ops/logger.js';

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
});
