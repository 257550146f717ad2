/**
 * Before the peers are timed: each answers the three operations as the
 * sandbox does, so that all serve the same work. Its list and its pet by id
 * must equal the sandbox's, and its create a 201 with the Pet the sandbox
 * would give first. Prism answers the spec's examples and is not checked.
 */
import { isDeepStrictEqual } from 'node:util';
import { CREATED, PET_ID } from './peer-files.js';
import { AUTH, type ServerProcess } from './processes.js';
import { NEW_PET } from './scenarios.js';

interface Answer {
  status: number;
  body: unknown;
}

async function ask(server: ServerProcess, path: string, body?: string): Promise<Answer> {
  const headers = { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) };
  const res = await fetch(`${server.base}${path}`, { method: body ? 'POST' : 'GET', headers, ...(body ? { body } : {}) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
}

/** What differs between `got` and `want`, as a line, or nothing. */
export function difference(what: string, got: Answer, want: Answer): string | undefined {
  if (got.status !== want.status) return `${what}: status ${got.status}, not ${want.status}`;
  if (!isDeepStrictEqual(got.body, want.body)) return `${what}: ${JSON.stringify(got.body).slice(0, 200)}, not ${JSON.stringify(want.body).slice(0, 200)}`;
  return undefined;
}

/**
 * Throws, naming every difference, unless each peer answers GET /v1/pets and GET /v1/pets/7 as `sandbox` does, and a create
 * with a 201 and the Pet the sandbox would create first. Peers that store creates (json-server) keep the pet: their first page does not change.
 */
export async function checkPeers(sandbox: ServerProcess, peers: ServerProcess[]): Promise<void> {
  const list = await ask(sandbox, '/pets');
  const byId = await ask(sandbox, `/pets/${PET_ID}`);
  const created = { status: 201, body: CREATED };
  const problems: string[] = [];
  for (const peer of peers) {
    const found = [
      difference(`${peer.name}, GET /v1/pets`, await ask(peer, '/pets'), list),
      difference(`${peer.name}, GET /v1/pets/${PET_ID}`, await ask(peer, `/pets/${PET_ID}`), byId),
      difference(`${peer.name}, POST /v1/pets`, await ask(peer, '/pets', NEW_PET), created),
    ];
    problems.push(...found.filter((p) => p !== undefined));
  }
  if (problems.length > 0) throw new Error(`peers do not answer as the sandbox does:\n  ${problems.join('\n  ')}`);
}
