/** An engine's close: later requests and the answers still pending get its 503 at once; a stream made late is ended unread. */
import { describe, expect, it } from 'vitest';
import type { ControlPlane, ControlPlaneResponse } from '../../../src/control/plane.js';
import { createEngine } from '../../../src/engine/engine.js';
import type { EngineRequest, EngineResponse } from '../../../src/kernel/types.js';
import type { V1Pipeline } from '../../../src/v1/pipeline.js';

const request = (url: string): EngineRequest => ({ method: 'GET', url, headers: { 'x-request-id': 'r1' } });
const NO_V1: V1Pipeline = { handle: () => Promise.reject(new Error('unused')) };
const EVENTS = { exchange: () => undefined, answered: () => undefined };
const CLOSED = { code: 'service_unavailable', status: 503, message: 'The sandbox is closed: it answers no more requests.' };

/** An engine whose control plane answers each request when the test says. */
function engineWithHeldAnswers() {
  const held: ((response: ControlPlaneResponse) => void)[] = [];
  const control: ControlPlane = { handle: () => new Promise((resolve) => held.push(resolve)) };
  return {
    engine: createEngine({
      config: { corsOrigins: '*', host: '127.0.0.1', allowedHosts: [], apiKeys: ['sandbox-key'], adminToken: 'sandbox-admin' },
      apis: [{ base: '/v1', pipeline: NO_V1 }],
      control,
      events: EVENTS,
    }),
    held,
  };
}

const bodyOf = (response: EngineResponse): unknown => JSON.parse(response.body as string);

describe("the engine's close", () => {
  it('answers as before while open', async () => {
    const { engine, held } = engineWithHeldAnswers();
    const answer = engine.handle(request('/__sandbox/health'));
    held[0]?.({ status: 200, headers: {}, body: '{}', operation: undefined });
    expect((await answer).status).toBe(200);
  });

  it('gives each answer still pending the 503 when it closes, and every request after, with its id', async () => {
    const { engine } = engineWithHeldAnswers();
    const pending = [engine.handle(request('/__sandbox/a')), engine.handle(request('/__sandbox/b'))];
    engine.close();
    for (const response of await Promise.all(pending)) {
      expect(response.status).toBe(503);
      expect(response.headers['X-Request-Id']).toBe('r1');
      expect(bodyOf(response)).toEqual(CLOSED);
    }
    const after = engine.handle(request('/v1/pets'));
    expect(after instanceof Promise).toBe(false);
    expect(bodyOf(after as EngineResponse)).toEqual(CLOSED);
  });

  it('ends a stream that comes after the 503, unread', async () => {
    const { engine, held } = engineWithHeldAnswers();
    let ended = false;
    const stream = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.resolve({ done: true as const, value: undefined }),
        return: () => {
          ended = true;
          return Promise.resolve({ done: true as const, value: undefined });
        },
      }),
    };
    const pending = engine.handle(request('/__sandbox/journal/stream'));
    engine.close();
    expect((await pending).status).toBe(503);
    held[0]?.({ status: 200, headers: {}, body: stream, operation: 'streamJournal' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ended).toBe(true);
  });
});
