/** An event stream as text: the heartbeat, and everything it holds let go when its reader stops. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventStream, eventStreamText, HEARTBEAT_MS, type SentEvent } from '../../../src/control/event-stream.js';

afterEach(() => vi.useRealTimers());

/** A stream with one first event, and a count of its followers. */
function stream() {
  const state = { following: 0, send: undefined as ((event: SentEvent) => void) | undefined };
  const events = new EventStream([{ event: 'open', data: { backlog: 0 } }], (send) => {
    state.following += 1;
    state.send = send;
    return () => (state.following -= 1);
  });
  return { state, events };
}

describe('eventStreamText', () => {
  it('sends a keep-alive comment every 15 s, and clears its timer and follower when the reader stops', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { state, events } = stream();
    const text = eventStreamText(events)[Symbol.asyncIterator]();
    expect((await text.next()).value).toBe('event: open\ndata: {"backlog":0}\n\n');
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect((await text.next()).value).toBe(': keep-alive\n\n');
    state.send?.({ event: 'entry', data: 1 });
    expect((await text.next()).value).toBe('event: entry\ndata: 1\n\n');
    expect(vi.getTimerCount()).toBe(1);
    await text.return?.();
    expect(vi.getTimerCount()).toBe(0);
    expect(state.following).toBe(0);
  });

  it('wakes a waiting read with the end when the signal aborts', async () => {
    const controller = new AbortController();
    const { state, events } = stream();
    const text = eventStreamText(events, controller.signal)[Symbol.asyncIterator]();
    await text.next();
    const waiting = text.next();
    controller.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(state.following).toBe(0);
  });

  it('follows nothing when its signal has aborted already', async () => {
    const { state, events } = stream();
    const text = eventStreamText(events, AbortSignal.abort())[Symbol.asyncIterator]();
    expect(state.following).toBe(0);
    expect(await text.next()).toEqual({ done: true, value: undefined });
  });

  it('ends when the sandbox closes, and gives its slot back once', async () => {
    const closing = new AbortController();
    let ends = 0;
    const { state, events } = stream();
    const text = eventStreamText(events, undefined, { closing: closing.signal, onEnd: () => (ends += 1) })[Symbol.asyncIterator]();
    await text.next();
    const waiting = text.next();
    closing.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
    await text.return?.();
    expect({ following: state.following, ends }).toEqual({ following: 0, ends: 1 });
  });

  it('follows nothing once the sandbox has closed', async () => {
    const { state, events } = stream();
    const text = eventStreamText(events, undefined, { closing: AbortSignal.abort() })[Symbol.asyncIterator]();
    expect(state.following).toBe(0);
    expect(await text.next()).toEqual({ done: true, value: undefined });
  });
});
