import { ControlError, createControlClient, type ControlClient } from '../../src/control/client.js';

/**
 * The admin token lives in this tab's sessionStorage only: never in a URL,
 * a cookie or localStorage, gone when the tab closes or on "Log out".
 */
const TOKEN_ITEM = 'petstore-sandbox.admin-token';

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_ITEM),
  save: (token: string): void => sessionStorage.setItem(TOKEN_ITEM, token),
  forget: (): void => sessionStorage.removeItem(TOKEN_ITEM),
};

/** The typed control client of this sandbox (the page's own origin), with the token and the chosen workspace's key. */
export function clientFor(token: string, key: string | undefined): ControlClient {
  return createControlClient({ origin: location.origin, adminToken: token, ...(key ? { key } : {}) });
}

/** Whether a failure means the token no longer opens the control plane. */
export const refused = (error: unknown): boolean => error instanceof ControlError && (error.status === 401 || error.status === 403);

/** What every part of the console shares: the client of the current workspace, and news of changes. */
export interface Console {
  client(): ControlClient;
  /** The API key of the workspace shown, or undefined for the sandbox's first key. */
  key(): string | undefined;
  /** Shows a failure in `target`; logs out when the token is refused. */
  fail(target: HTMLElement, error: unknown): void;
  /** The workspace's data changed: reload what shows it. */
  changed(): Promise<void>;
}
