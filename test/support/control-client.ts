/**
 * The tests' way to the control plane: the product's own client
 * (src/control/client.ts), with every answer checked against
 * spec/sandbox-control.yaml before a test sees it.
 */
import { createControlClient, type ControlClient, type SendInit } from '../../src/control/client.js';
import { CONTROL_BASE } from '../../src/control/routes.js';
import { startTestSandbox, type CallResult, type TestSandbox } from './harness.js';
import { expectControlValid } from './spec-check.js';

export type ControlInit = Pick<SendInit, 'token' | 'key' | 'json' | 'body' | 'headers'>;

/**
 * A control request as a test writes it: method, path under /__sandbox and
 * options (`token: null` sends none), whatever the answer. For what no
 * operation describes (a wrong token, a malformed body, an unknown path);
 * other calls can use the typed client.
 */
export type Control = (method: string, path: string, init?: ControlInit) => Promise<CallResult>;

/** The typed client of a sandbox's control plane, with its admin token. */
export function clientOf(sb: { origin: string; config: { adminToken: string } }, key?: string): ControlClient {
  return createControlClient({ origin: sb.origin, adminToken: sb.config.adminToken, ...(key === undefined ? {} : { key }) });
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
  const client = createControlClient({ origin, adminToken });
  return async (method, path, init = {}) => {
    const res = await client.send(method, path, init);
    const result: CallResult = { status: res.status, headers: res.headers, body: res.body, text: res.text };
    await expectControlValid(method, `${CONTROL_BASE}${path.split('?')[0] as string}`, result);
    return result;
  };
}

/** A sandbox (by default with two keys, two workspaces) and its checked control client. */
export async function startControlSandbox(args: string[] = ['--api-keys', 'key-a,key-b']): Promise<{ sb: TestSandbox; ctl: Control }> {
  const sb = await startTestSandbox(args);
  return { sb, ctl: controlOf(sb) };
}
