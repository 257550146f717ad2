import { StoreFailure } from '../kernel/store-errors.js';

/** The refusal of a use that comes once a store is closing, worded once for every store. */
export const storeClosing = (): StoreFailure => new StoreFailure('service_unavailable', 'The sandbox is stopping and takes no more work. Try again shortly.');

/**
 * The uses of a store's workspaces under way, so that closing it waits for
 * them: a write that began finishes before the files are closed (or the
 * connections ended), and none begins after. A use asked once closing has
 * begun is refused (`storeClosing`), never served by a store opened again.
 */
export class UsesInFlight {
  private count = 0;
  private closing: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  /** A use begins, counted until it `leave`s; or, once closing has begun, its refusal (`storeClosing`), not counted. */
  enter(): StoreFailure | undefined {
    if (this.closing) return storeClosing();
    this.count += 1;
    return undefined;
  }

  /** A use that `enter`ed has settled. */
  leave(): void {
    this.count -= 1;
    if (this.count === 0) this.wake?.();
  }

  /** Refuses every use from now on; resolves once those under way have settled. */
  close(): Promise<void> {
    this.closing ??= this.count === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.wake = resolve));
    return this.closing;
  }
}
