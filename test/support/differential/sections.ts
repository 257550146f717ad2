/**
 * The second corpus: cases that need sandbox options of their own (no pet
 * quota, so that sets of 300 KB and 60 MB load; an upstream for proxy
 * mode), in sections, each sent to a fresh sandbox of every way in.
 */
import { BODY_CASES } from './body-cases.js';
import { CONTROL_CASES } from './control-cases.js';
import { sent } from './corpus.js';
import { PROXY_CASES } from './proxy-cases.js';
import type { SandboxOptions } from './ways.js';
import type { WireRequest } from './wire.js';

export interface Section {
  readonly name: string;
  readonly cases: readonly WireRequest[];
}

const normalised = (cases: readonly WireRequest[]): WireRequest[] => cases.map((c) => ({ ...c, target: sent(c.target) }));

export const CONTROL_SECTION: Section = { name: 'large control-plane bodies, checkpoints and faults', cases: normalised(CONTROL_CASES) };
export const PROXY_SECTION: Section = { name: 'proxy mode', cases: normalised(PROXY_CASES) };
export const BODY_SECTION: Section = { name: 'bodies over the limits and bodies sent slowly', cases: normalised(BODY_CASES) };

export const SECTIONS: readonly Section[] = [CONTROL_SECTION, PROXY_SECTION, BODY_SECTION];

/**
 * The second corpus's sandbox options: the first's seed, count and journal,
 * the default quotas, the deployment at `upstream` (its base, ending in /v1).
 */
export const sectionOptions = (upstream: string): SandboxOptions => ({ seed: 1, count: 30, options: { 'journal-size': 1000, upstream } });

/**
 * The same options for the browser build, which cannot forward: an upstream
 * is a ConfigError there, so it has none (and the cases proxy mode answers
 * are not sent to it; the switch to proxy answers 501).
 */
export const browserSectionOptions = (): SandboxOptions => ({ seed: 1, count: 30, options: { 'journal-size': 1000 } });
