/**
 * The tests' use of the one response checker (contracts/spec-check.ts,
 * independent of src/) on the two specs: `/v1` responses against
 * spec/openapi.yaml by operation id, control-plane responses against
 * spec/sandbox-control.yaml by method and path.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { createSpecChecker, type ResponseToCheck, type SpecOperation } from '../../contracts/spec-check.js';

export const SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
export const CONTROL_SPEC_PATH = fileURLToPath(new URL('../../spec/sandbox-control.yaml', import.meta.url));

export type CheckedResponse = ResponseToCheck;

const interfaceChecker = createSpecChecker(SPEC_PATH);
const controlChecker = createSpecChecker(CONTROL_SPEC_PATH);

/** Where the control plane is served: its spec's paths start after it. */
const CONTROL_BASE = '/__sandbox';
/**
 * What a control path the spec does not describe may answer: the admin
 * check's 401/403, else 404 (the spec's fallback), always as an Error.
 */
const CONTROL_UNMATCHED = [401, 403, 404];

/**
 * Problems of one response of `operationId`: its status documented (or, for
 * statuses the sandbox adds where the interface is silent, an Error body),
 * exact `application/json` Content-Type, body valid against the schema,
 * Error `status` equal to the HTTP status, pinned header values present.
 */
export async function responseProblems(operationId: string, res: CheckedResponse): Promise<string[]> {
  return interfaceChecker.problems(await interfaceChecker.byId(operationId), res, { undocumented: 'error-body' });
}

/** Throws with every problem if the response is not valid against spec/openapi.yaml. */
export async function expectSpecValid(operationId: string, res: CheckedResponse): Promise<void> {
  const problems = await responseProblems(operationId, res);
  if (problems.length > 0)
    throw new Error(`${operationId} ${res.status} is not valid against spec/openapi.yaml:\n- ${problems.join('\n- ')}\nbody: ${JSON.stringify(res.body)}`);
}

/** Every documented status of every operation of spec/openapi.yaml. */
export function documentedStatuses(): Promise<Map<string, number[]>> {
  return interfaceChecker.documentedStatuses();
}

/** Paths the control spec serves at the root, not under `/__sandbox` (their path item has its own `servers`): probes and metrics. */
const ROOT_PATHS = new Set(
  Object.entries((parse(readFileSync(CONTROL_SPEC_PATH, 'utf8')) as { paths: Record<string, { servers?: unknown }> }).paths)
    .filter(([, item]) => item.servers !== undefined)
    .map(([path]) => path),
);

/** The control operation a request reached, from its method and URL path (`/__sandbox/...`, or a root path), if the spec describes it. */
export async function findControlOperation(method: string, urlPath: string): Promise<SpecOperation | undefined> {
  if (ROOT_PATHS.has(urlPath.split('?')[0] ?? '')) return controlChecker.find(method, urlPath);
  if (!urlPath.startsWith(`${CONTROL_BASE}/`)) return undefined;
  return controlChecker.find(method, urlPath.slice(CONTROL_BASE.length));
}

/**
 * Problems of one control response: the status documented for its
 * operation (a path the spec does not describe may only answer its
 * fallback), everything else as for `/v1`.
 */
export async function controlProblems(method: string, urlPath: string, res: CheckedResponse): Promise<string[]> {
  return controlChecker.problems(await findControlOperation(method, urlPath), res, { unmatched: CONTROL_UNMATCHED });
}

/** Throws with every problem if the response is not valid against spec/sandbox-control.yaml. */
export async function expectControlValid(method: string, urlPath: string, res: CheckedResponse): Promise<void> {
  const problems = await controlProblems(method, urlPath, res);
  if (problems.length > 0)
    throw new Error(
      `${method} ${urlPath} ${res.status} is not valid against spec/sandbox-control.yaml:\n- ${problems.join('\n- ')}\nbody: ${JSON.stringify(res.body)}`,
    );
}
