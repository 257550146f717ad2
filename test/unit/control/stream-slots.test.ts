/** The cap on live tails per client: counted per client, the in-process ways as one, a slot given back once. */
import { describe, expect, it } from 'vitest';
import { createStreamSlots } from '../../../src/control/stream-slots.js';
import { ApiError } from '../../../src/kernel/errors.js';

const refusal = (take: () => unknown): unknown => {
  try {
    take();
  } catch (error) {
    return error instanceof ApiError ? error.toBody() : error;
  }
  return undefined;
};

describe('createStreamSlots', () => {
  it('refuses the one over the cap of its client with the 503, and no other client', () => {
    const slots = createStreamSlots(2);
    slots.take('10.0.0.1');
    slots.take('10.0.0.1');
    expect(refusal(() => slots.take('10.0.0.1'))).toEqual({
      code: 'service_unavailable',
      status: 503,
      message: 'Too many journal streams from this client address: at most 2 at once; close some first.',
    });
    expect(refusal(() => slots.take('10.0.0.2'))).toBeUndefined();
  });

  it('counts the in-process ways as one client, and takes a slot given back again, counted once however often it is given', () => {
    const slots = createStreamSlots(1);
    const give = slots.take(undefined);
    expect(refusal(() => slots.take(undefined))).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('this process') });
    give();
    give();
    slots.take(undefined);
    expect(refusal(() => slots.take(undefined))).toMatchObject({ status: 503 });
  });
});
