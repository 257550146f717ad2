import { startTestSandbox, type CallResult, type TestSandbox } from './harness.js';
import { expectControlValid } from './control-check.js';

export interface ControlInit {
  /** Admin token sent as `Authorization: Bearer`; default the sandbox's; `null` sends none. */
  token?: string | null;
  /** `X-Sandbox-Key`: the workspace acted on; default none (the first API key's). */
  key?: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

/** A control call: method, path under /__sandbox, and options. */
export type Control = (method: string, path: string, init?: ControlInit) => Promise<CallResult>;

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/**
 * Calls the control plane of `sb` over real HTTP and checks EVERY response
 * against spec/sandbox-control.yaml before returning it.
 */
export function controlOf(sb: TestSandbox): Control {
  return controlAt(sb.origin, sb.config.adminToken);
}

/** `controlOf` for a sandbox known by its origin and admin token, e.g. one running as a child process. */
export function controlAt(origin: string, adminToken: string): Control {
  return async (method, path, init = {}) => {
    const headers = new Headers(init.headers);
    const token = init.token === undefined ? adminToken : init.token;
    if (token !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    if (init.key !== undefined) headers.set('x-sandbox-key', init.key);
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const url = `/__sandbox${path}`;
    const res = await fetch(`${origin}${url}`, { method, headers, body });
    const text = await res.text();
    const result: CallResult = { status: res.status, headers: res.headers, body: parse(text), text };
    await expectControlValid(method, url.split('?')[0] as string, result);
    return result;
  };
}

/** A sandbox (by default with two keys, two workspaces) and its checked control client. */
export async function startControlSandbox(args: string[] = ['--api-keys', 'key-a,key-b']): Promise<{ sb: TestSandbox; ctl: Control }> {
  const sb = await startTestSandbox(args);
  return { sb, ctl: controlOf(sb) };
}
