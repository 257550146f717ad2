/**
 * Proxy mode's cases, as data, for a sandbox made with `upstream` at the
 * small deployment of upstream.ts: the mode switched to proxy through the
 * control plane, /v1 requests the deployment answers (valid ones, and ones
 * that break the interface, reported in `Sandbox-Violations` and the
 * journal: a query, a body field, a missing key, a path no operation has,
 * an answer whose id is a string), then the mode switched back and the
 * store found as it was (docs/modes.md, "Proxy mode").
 */
import { control, get, key, post, type Case } from './cases.js';

const SWITCH = control('control 200 switched to proxy', 'PUT', '/mode', { mode: 'proxy' });
const SWITCH_BACK = control('control 200 switched back to stateful', 'PUT', '/mode', { mode: 'stateful' });

/** What is sent while the mode is proxy: the deployment answers, the sandbox reports. */
const PROXIED: readonly Case[] = [
  control('control 200 the mode is proxy', 'GET', '/mode'),
  get('listPets 200 the upstream’s two pets', '/v1/pets?limit=5'),
  get('getPet 200 the upstream’s, deprecated', '/v1/pets/1'),
  get('getPet 404 the upstream’s', '/v1/pets/999'),
  get('getPet 200 the upstream breaks the spec: an id as a string', '/v1/pets/3'),
  post('createPet 201 the upstream’s', '{"name":"Rex","categoryId":1}'),
  post('createPet 400 the upstream’s, an extra field reported', '{"name":"Rex","categoryId":1,"colour":"red"}'),
  get('listPets 400 the upstream’s, limit=0 reported', '/v1/pets?limit=0'),
  get('listPets 200 Prefer goes to the upstream', '/v1/pets?limit=1', { ...key, prefer: 'code=404' }),
  get('listPets 401 the upstream’s, no key reported', '/v1/pets', {}),
  get('404 the upstream’s, a path no operation has, reported', '/v1/owners'),
];

export const PROXY_CASES: readonly Case[] = [
  control('control 200 proxy among the modes', 'GET', '/mode'),
  get('listPets 200 from the store before the switch', '/v1/pets?limit=3'),
  SWITCH,
  ...PROXIED,
  SWITCH_BACK,
  get('listPets 200 from the store after the switch back', '/v1/pets?limit=3'),
  post('createPet 201 in the store after the switch back', '{"name":"Home","categoryId":2}'),
];

const inProxy = new Set([SWITCH, ...PROXIED].map((request) => request.name));
/** The answers that list the modes on offer: a sandbox without an upstream (the browser build) offers fewer. */
const listingModes = new Set(['control 200 proxy among the modes', SWITCH_BACK.name]);

/**
 * Whether a case is the switch to proxy or is sent in proxy mode: a sandbox
 * that cannot forward (the browser build) refuses the switch (501), so
 * these are not comparable there.
 */
export const answeredInProxyMode = (request: Case): boolean => inProxy.has(request.name);

/**
 * Whether the browser build answers a case otherwise, by design: it cannot
 * forward, so it has no upstream (a ConfigError there), offers only the
 * modes it can answer in, and refuses the switch to proxy (501).
 */
export const otherwiseInBrowser = (request: Case): boolean => answeredInProxyMode(request) || listingModes.has(request.name);

/** The switch to proxy mode, alone. */
export const SWITCH_TO_PROXY: Case = SWITCH;
