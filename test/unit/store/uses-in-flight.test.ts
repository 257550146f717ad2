/** Closing a store waits for the uses under way and refuses any use asked after. */
import { describe, expect, it } from 'vitest';
import { StoreFailure } from '../../../src/kernel/store-errors.js';
import { UsesInFlight } from '../../../src/store/uses-in-flight.js';

describe('UsesInFlight', () => {
  it('closes at once when nothing is under way, and refuses every use after', async () => {
    const uses = new UsesInFlight();
    await uses.close();
    const refused = uses.enter();
    expect(refused).toBeInstanceOf(StoreFailure);
    expect(refused?.code).toBe('service_unavailable');
  });

  it('resolves close once the last use under way has left, not before', async () => {
    const uses = new UsesInFlight();
    expect([uses.enter(), uses.enter()]).toEqual([undefined, undefined]);
    let closed = false;
    const closing = uses.close().then(() => (closed = true));
    expect(uses.enter()).toBeInstanceOf(StoreFailure);
    uses.leave();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toBe(false);
    uses.leave();
    await closing;
    expect(closed).toBe(true);
    expect(uses.close()).toBe(uses.close());
  });
});
