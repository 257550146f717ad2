import { describe, expect, it } from 'vitest';
import { bufferedDestination, createLogger } from '../../src/ops/logger.js';

/** A stream that keeps what it is given, and says it holds `pending` characters unwritten. */
function sink(pending = 0) {
  const chunks: string[] = [];
  return { chunks, stream: { write: (chunk: string) => chunks.push(chunk) > 0, writableLength: pending } as unknown as NodeJS.WritableStream };
}

describe('the buffered stdout destination', () => {
  it('gathers lines until 16 KiB or a flush, then writes them as one chunk', () => {
    const { chunks, stream } = sink();
    const out = bufferedDestination(stream);
    out.write('one\n');
    out.write('two\n');
    expect(chunks).toEqual([]);
    out.flush();
    expect(chunks).toEqual(['one\ntwo\n']);
    out.write(`${'x'.repeat(16 * 1024)}\n`);
    expect(chunks).toHaveLength(2);
    out.flush();
    expect(chunks).toHaveLength(2);
  });

  it('drops lines rather than pile them on a stream that is not read', () => {
    const { chunks, stream } = sink(64 * 1024 * 1024);
    const out = bufferedDestination(stream);
    out.write('lost\n');
    out.flush();
    expect(chunks).toEqual([]);
  });
});

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
});
