/**
 * The Pet Store client a frontend team writes: typed calls of the three
 * operations, the key sent as a bearer token, and every non-2xx answer
 * turned into a PetStoreError that carries the interface's Error body.
 * The Pact consumer tests drive exactly this code, so the pact file says
 * what this client really sends and really relies on.
 */
import type { components } from '../../src/openapi/schema.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type ErrorBody = components['schemas']['Error'];

export interface ListPetsFilter {
  status?: PetStatus;
  /** 1..100; the service's default is 20. */
  limit?: number;
}

/** A non-2xx answer. `body` is the service's Error when it sent one. */
export class PetStoreError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: ErrorBody | undefined;

  constructor(status: number, body: ErrorBody | undefined, fallback: string) {
    super(body ? `${body.code}: ${body.message}` : fallback);
    this.name = 'PetStoreError';
    this.status = status;
    this.code = body?.code ?? 'unexpected_response';
    this.body = body;
  }
}

export interface PetStoreClientOptions {
  /** The base address, ending in `/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; without it no Authorization header is sent. */
  apiKey?: string;
  fetch?: typeof fetch;
}

export interface PetStoreClient {
  listPets(filter?: ListPetsFilter): Promise<Pet[]>;
  createPet(pet: NewPet): Promise<Pet>;
  /** Deprecated by the service (removal announced for 5 December 2030); prefer listPets. */
  getPet(id: number): Promise<Pet>;
}

function isErrorBody(value: unknown): value is ErrorBody {
  const v = value as Partial<ErrorBody> | null;
  return typeof v === 'object' && v !== null && typeof v.code === 'string' && typeof v.message === 'string' && typeof v.status === 'number';
}

/** Creates a client of the Pet Store at `options.baseUrl`. */
export function createPetStoreClient(options: PetStoreClientOptions): PetStoreClient {
  const base = options.baseUrl.replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) throw new PetStoreError(res.status, isErrorBody(parsed) ? parsed : undefined, `${method} ${path} answered ${res.status}`);
    if (parsed === undefined) throw new PetStoreError(res.status, undefined, `${method} ${path} answered ${res.status} without a JSON body`);
    return parsed as T;
  }

  return {
    listPets(filter = {}) {
      const query = new URLSearchParams();
      if (filter.status !== undefined) query.set('status', filter.status);
      if (filter.limit !== undefined) query.set('limit', String(filter.limit));
      const qs = query.toString();
      return request<Pet[]>('GET', `/pets${qs ? `?${qs}` : ''}`);
    },
    createPet: (pet) => request<Pet>('POST', '/pets', pet),
    getPet: (id) => request<Pet>('GET', `/pets/${encodeURIComponent(String(id))}`),
  };
}
