/**
 * The provider states this sandbox can set up for a Pact verification, by
 * name: the one vocabulary for every verifier (`POST /__sandbox/provider-states`),
 * this repository's own verification, and the pacts the sandbox records from
 * its journal. A state is a plan, not an action: the pets the workspace holds
 * afterwards, whether its key is refused once, and the values a verifier may
 * inject into the interaction (`fromProviderState`). The control plane
 * carries the plan out; nothing here touches storage.
 */
import type { Int64, Pet, PetStatus } from '../store/types.js';

export type StateParams = Record<string, unknown>;

/** What setting up a state does to a workspace. */
export interface StatePlan {
  /** The workspace's pets afterwards (all of them); undefined leaves them as they are. */
  pets?: readonly Pet[];
  /** Whether the key's next /v1 request is answered 401, as if the key were not valid. */
  refuseKey?: boolean;
  /** Values for the interaction (`fromProviderState`), answered to the verifier. */
  values: Record<string, unknown>;
}

interface StatePattern {
  /** The state as consumers write it: in docs/contract-testing.md and in the 400 listing known states. */
  example: string;
  pattern: RegExp;
  plan(match: RegExpExecArray, params: StateParams): StatePlan;
}

export const PET_STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

/** Pets of every status (two of each) and one without status. */
const SOME_PETS: readonly Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'pending' },
  { id: 3, name: 'Polly', categoryId: 3, status: 'sold' },
  { id: 4, name: 'Bubbles', categoryId: 4 },
  { id: 5, name: 'Felix', categoryId: 2, status: 'sold' },
  { id: 6, name: 'Nemo', categoryId: 5, status: 'available' },
  { id: 7, name: 'Kiwi', categoryId: 6, status: 'pending' },
];

/**
 * A pet named by the state's parameters where given (`name`, `categoryId`,
 * `status`; defaults `Rex`, 1, `available`). `status: null` leaves it out.
 * The control plane checks the result against the spec's Pet schema.
 */
function petFrom(id: number, params: StateParams): Pet {
  const pet: Pet = {
    id,
    name: typeof params.name === 'string' ? params.name : 'Rex',
    categoryId: (params.categoryId ?? 1) as Int64,
  };
  const status = params.status === undefined ? 'available' : params.status;
  if (status !== null) pet.status = status as PetStatus;
  return pet;
}

/** Parameterised states: any id, any status. */
export const PROVIDER_STATES: readonly StatePattern[] = [
  {
    example: 'a pet with id 7 exists',
    pattern: /^a pet with id (\d+) exists$/,
    plan: (match, params) => {
      const pet = petFrom(Number(match[1]), params);
      return { pets: [pet], values: { ...pet } };
    },
  },
  {
    example: 'no pet with id 999 exists',
    pattern: /^no pet with id (\d+) exists$/,
    // Other pets exist, so a provider that answered any id with some pet would be caught.
    plan: (match) => {
      const id = Number(match[1]);
      return { pets: SOME_PETS.filter((pet) => pet.id !== id), values: { id } };
    },
  },
  {
    example: 'no pets exist',
    pattern: /^no pets exist$/,
    plan: () => ({ pets: [], values: {} }),
  },
  {
    example: 'pets with status sold exist',
    pattern: /^pets with status (available|pending|sold) exist$/,
    // Every status is present, so a filter that ignored `status` would be caught.
    plan: (match) => ({ pets: SOME_PETS, values: { status: match[1] } }),
  },
  {
    example: 'the request has no valid API key',
    pattern: /^the request has no valid API key$/,
    // A verifier that sends its key with every request (a custom header) still gets the 401 the interaction expects.
    plan: () => ({ refuseKey: true, values: {} }),
  },
];

/** The known states, as consumers write them. */
export const KNOWN_STATES: readonly string[] = PROVIDER_STATES.map((s) => s.example);

/** The plan of a state by its name, or undefined when no known state has that name. */
export function planState(name: string, params: StateParams = {}): StatePlan | undefined {
  for (const state of PROVIDER_STATES) {
    const match = state.pattern.exec(name);
    if (match) return state.plan(match, params);
  }
  return undefined;
}

/** The names among `names` that no known state matches. */
export function unknownStates(names: Iterable<string>): string[] {
  return [...names].filter((name) => planState(name) === undefined);
}
