/**
 * The fleet test's clients: workers that create, read and list pets through
 * the balancer, each with one of the keys, recording every answer; and what
 * they must never see: a 5xx other than a 503 that says when to try again,
 * a failed connection to the balancer, a pet acknowledged and then missing.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoadRecord {
  /** Per key: the pets a 201 acknowledged, by id, with their names. */
  acknowledged: Map<string, Map<number, string>>;
  /** Per key: every name a create sent, whatever it was answered (a name is never sent twice). */
  sent: Map<string, Set<string>>;
  /** Answers by status. */
  statuses: Map<number, number>;
  /** 503 answers with Retry-After, while an instance drained or the database was down. */
  retried: number;
  /** What must not happen, one line each. */
  unexpected: string[];
}

const newRecord = (keys: readonly string[]): LoadRecord => ({
  acknowledged: new Map(keys.map((k) => [k, new Map()])),
  sent: new Map(keys.map((k) => [k, new Set()])),
  statuses: new Map(),
  retried: 0,
  unexpected: [],
});

type Answer = { status: number; body: unknown } | undefined;

/** One request through the balancer; an unexpected answer (or none) is recorded, and undefined returned. */
async function send(record: LoadRecord, origin: string, key: string, method: string, path: string, json?: unknown): Promise<Answer> {
  const what = `${method} ${path}`;
  try {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    record.statuses.set(res.status, (record.statuses.get(res.status) ?? 0) + 1);
    if (res.status === 503 && res.headers.get('retry-after')) {
      record.retried++;
      return undefined;
    }
    if (res.status >= 500 || !res.headers.get('content-type')?.startsWith('application/json')) {
      record.unexpected.push(`${what}: ${res.status} ${res.headers.get('content-type')} ${text.slice(0, 200)}`);
      return undefined;
    }
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch (error) {
    record.unexpected.push(`${what}: no answer (${(error as Error).message}: ${String((error as { cause?: unknown }).cause)})`);
    return undefined;
  }
}

/** One worker's round: a create, a read of a pet it made (any acknowledged one), a list. */
async function round(record: LoadRecord, origin: string, key: string, name: string): Promise<void> {
  record.sent.get(key)?.add(name);
  const created = await send(record, origin, key, 'POST', '/v1/pets', { name, categoryId: 1 });
  const mine = record.acknowledged.get(key) as Map<number, string>;
  if (created?.status === 201) {
    const pet = created.body as { id: number; name: string };
    if (pet.name !== name) record.unexpected.push(`POST /v1/pets answered ${JSON.stringify(pet)} for ${name}`);
    mine.set(pet.id, name);
    const read = await send(record, origin, key, 'GET', `/v1/pets/${pet.id}`);
    if (read && (read.status !== 200 || (read.body as { name?: string }).name !== name)) {
      record.unexpected.push(`GET /v1/pets/${pet.id} right after its 201 answered ${read.status} ${JSON.stringify(read.body)}`);
    }
  } else if (created && created.status !== 201) {
    record.unexpected.push(`POST /v1/pets answered ${created.status} ${JSON.stringify(created.body)}`);
  }
  const listed = await send(record, origin, key, 'GET', '/v1/pets?limit=5');
  if (listed && listed.status !== 200) record.unexpected.push(`GET /v1/pets answered ${listed.status}`);
}

/** Runs `workers` workers through `origin` until `running()` turns false; resolves with what they saw. */
export async function runLoad(origin: string, keys: readonly string[], workers: number, running: () => boolean): Promise<LoadRecord> {
  const record = newRecord(keys);
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const key = keys[w % keys.length] as string;
      for (let n = 0; running(); n++) {
        const before = record.retried;
        await round(record, origin, key, `fleet-${w}-${n}`);
        // A 503 said to come back shortly: the worker waits a little, as a client should.
        if (record.retried > before) await sleep(100);
      }
    }),
  );
  return record;
}
