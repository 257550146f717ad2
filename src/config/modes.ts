/** The modes, in a file of their own: the control plane names them without loading the option parser and its secret files. */

/** The modes in which the sandbox answers /v1 itself; `proxy` passes each request on to a deployment. */
export const ANSWERING_MODES = ['stateful', 'example', 'dynamic'] as const;
export const MODES = [...ANSWERING_MODES, 'proxy'] as const;
export type Mode = (typeof MODES)[number];
