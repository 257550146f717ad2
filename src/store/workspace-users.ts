import { StoreFailure } from '../kernel/store-errors.js';

/** The refusal of a workspace beyond `--max-workspaces`, worded once for every store. */
export const tooManyWorkspaces = (max: number): StoreFailure =>
  new StoreFailure('service_unavailable', `Too many workspaces are in use at once (${max}, --max-workspaces). Try again shortly.`);

/**
 * The workspaces requests use now, by id, and the cap on how many at once
 * (`--max-workspaces`): a request for one nobody uses is refused while
 * `max` others are in use; one already in use always goes in. The memory
 * and PostgreSQL stores count these; the file store caps the workspaces it
 * holds open instead (each holds files), with the same words.
 */
export class WorkspaceUsers {
  private readonly users = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A request starts using `id`; throws `tooManyWorkspaces` when it would pass the cap. */
  enter(id: string): void {
    const users = this.users.get(id) ?? 0;
    if (users === 0 && this.users.size >= this.max) throw tooManyWorkspaces(this.max);
    this.users.set(id, users + 1);
  }

  /** A request that `enter`ed is done with `id`. */
  leave(id: string): void {
    const left = (this.users.get(id) ?? 1) - 1;
    if (left <= 0) this.users.delete(id);
    else this.users.set(id, left);
  }

  /** Whether a request uses `id` now: it is not removed under it. */
  holds(id: string): boolean {
    return this.users.has(id);
  }

  /** Workspaces in use now. */
  get size(): number {
    return this.users.size;
  }

  /** Ids of the workspaces in use now. */
  ids(): string[] {
    return [...this.users.keys()];
  }
}
