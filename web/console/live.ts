import type { JournalEntry } from './follow.js';

/** How long entries gather before the views they change are fetched again, ms: a burst of requests costs one refresh, a steady stream one per period. */
export const REFRESH_DELAY_MS = 300;

/** A view that can fetch what it shows again, and tell whether a journal entry changes it. */
export interface LiveView {
  load(): Promise<void>;
  changedBy(entry: JournalEntry): boolean;
}

/**
 * Keeps views current from the live journal, without polling: each new
 * entry marks the views it changes, and `delayMs` after the first of them
 * those views are fetched again (entries arriving meanwhile join that
 * refresh), one refresh after another so that an older answer never
 * overwrites a newer one.
 */
export function createLiveRefresh(views: readonly LiveView[], delayMs = REFRESH_DELAY_MS): { saw(entry: JournalEntry): void; cancel(): void } {
  const due = new Set<LiveView>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<unknown> = Promise.resolve();

  const flush = () => {
    timer = undefined;
    const now = [...due];
    due.clear();
    chain = chain.then(() => Promise.all(now.map((view) => view.load())));
  };
  return {
    saw: (entry) => {
      for (const view of views) if (view.changedBy(entry)) due.add(view);
      if (due.size > 0 && timer === undefined) timer = setTimeout(flush, delayMs);
    },
    cancel: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      due.clear();
    },
  };
}
