/**
 * A small client of a sandbox's /__sandbox control plane, used to set up
 * provider states and to find out whether a deployment has one at all.
 */

export interface ControlPlaneOptions {
  /** Origin (and any path prefix) serving `/__sandbox`, e.g. `http://127.0.0.1:4010`. */
  adminUrl: string;
  adminToken: string;
  /** The API key whose workspace is acted on (sent as `X-Sandbox-Key`). */
  key: string;
}

export interface PetRecord {
  id: number;
  name: string;
  categoryId: number;
  status?: 'available' | 'pending' | 'sold';
}

export interface WorkspaceSummary {
  workspace: string;
  count: number;
  nextId: number;
}

const TIMEOUT_MS = 10_000;

/** A failed control-plane call, with the status and the Error the sandbox sent. */
export class ControlPlaneError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ControlPlaneError';
  }
}

export interface ControlPlane {
  /** Whether `/__sandbox/health` answers `{status: "ok"}` (needs no token). */
  isPresent(): Promise<boolean>;
  /** Checks the admin token with `GET /__sandbox/mode`; returns the mode. */
  mode(): Promise<string>;
  load(pets: readonly PetRecord[], mode?: 'replace' | 'append'): Promise<WorkspaceSummary>;
  reset(body?: { seed?: number; count?: number; empty?: boolean }): Promise<WorkspaceSummary>;
}

/** Creates a client of the control plane at `options.adminUrl`. */
export function createControlPlane(options: ControlPlaneOptions): ControlPlane {
  const base = options.adminUrl.replace(/\/$/, '');
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.adminToken}`, 'X-Sandbox-Key': options.key };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${base}/__sandbox${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await res.text();
    if (!res.ok) throw new ControlPlaneError(`${method} ${base}/__sandbox${path} answered ${res.status}: ${text.slice(0, 300)}`, res.status);
    return JSON.parse(text) as T;
  }
  return {
    async isPresent() {
      try {
        const res = await fetch(`${base}/__sandbox/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
        if (!res.ok) return false;
        return ((await res.json()) as { status?: unknown }).status === 'ok';
      } catch {
        return false;
      }
    },
    mode: async () => (await call<{ mode: string }>('GET', '/mode')).mode,
    load: (pets, mode = 'replace') => call('POST', '/load', { pets, mode }),
    reset: (body = {}) => call('POST', '/reset', body),
  };
}
